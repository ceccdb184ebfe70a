import 'reflect-metadata';
import fastifyStatic from '@fastify/static';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LabSettings, loadLabSettings } from './config/lab-settings';
import { LabModule } from './lab.module';

// Only what the page needs from elsewhere: its own files, and its API on the same origin.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

async function bootstrap(): Promise<void> {
  // The lab runs walkthrough steps; one cancelled halfway may leave a promise nobody awaits any
  // more. That is logged, and must not take the page's server down with it.
  process.on('unhandledRejection', (error) =>
    new Logger('Lab').error(`a promise was left unhandled: ${error instanceof Error ? error.stack : String(error)}`),
  );
  const early = loadLabSettings(); // fail before anything starts when the environment is wrong
  const levels = ['error', 'warn', 'log'] as const;
  // nginx keeps idle upstream connections for 60 s: outlast it (see the API's main.ts).
  const adapter = new FastifyAdapter({
    bodyLimit: 4 * 1024,
    keepAliveTimeout: 65_000,
    return503OnClosing: false,
    skipMiddie: true, // no Nest middleware here
  });
  const app = await NestFactory.create<NestFastifyApplication>(LabModule, adapter, {
    bodyParser: false, // Fastify's own JSON parser, under bodyLimit
    logger: levels.slice(0, levels.indexOf(early.logLevel) + 1) as never,
  });
  const settings = app.get<LabSettings>(LabSettings);
  app.setGlobalPrefix('lab', { exclude: ['health'] });
  await app.register(fastifyStatic, {
    root: settings.pageDir,
    prefix: '/lab/',
    index: 'index.html',
    // Small files, revalidated by their ETag: a rebuilt page is never served stale.
    cacheControl: false,
    setHeaders: (reply) => {
      reply.header('Cache-Control', 'no-cache');
      reply.header('Content-Security-Policy', CSP);
      reply.header('X-Content-Type-Options', 'nosniff');
    },
  });
  // A scenario cancelled on shutdown gets to clean up (reset its coupon) before the process ends.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  app.getHttpServer().headersTimeout = 66_000;
  await app.listen(settings.port, '0.0.0.0');
}

void bootstrap();
