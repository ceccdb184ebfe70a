import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ServerResponse } from 'node:http';
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
  const app = await NestFactory.create<NestExpressApplication>(LabModule, {
    bodyParser: false,
    logger: levels.slice(0, levels.indexOf(early.logLevel) + 1) as never,
  });
  const settings = app.get<LabSettings>(LabSettings);
  app.useBodyParser('json', { limit: '4kb', strict: true });
  app.disable('x-powered-by');
  app.setGlobalPrefix('lab', { exclude: ['health'] });
  app.useStaticAssets(settings.pageDir, {
    prefix: '/lab/',
    index: 'index.html',
    setHeaders: (res: ServerResponse) => {
      // Small files, revalidated by their ETag: a rebuilt page is never served stale.
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Content-Security-Policy', CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  // A scenario cancelled on shutdown gets to clean up (reset its coupon) before the process ends.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  const server = app.getHttpServer();
  // nginx keeps idle upstream connections for 60 s: outlast it (see the API's main.ts).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await app.listen(settings.port, '0.0.0.0');
}

void bootstrap();
