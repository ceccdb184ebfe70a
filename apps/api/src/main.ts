import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { ConnectionDrain } from './common/connection-drain';
import { loadConfig } from './config/app-config';

const LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

async function bootstrap(): Promise<void> {
  const config = loadConfig(); // the one read of the environment: fails before anything starts
  const adapter = new FastifyAdapter({
    bodyLimit: 16 * 1024,
    // nginx keeps idle upstream connections for 60 s (its keepalive_timeout). A shorter timeout
    // here would close them first, and a POST nginx sends just as the replica closes the
    // connection comes back as a 502 (nginx never re-sends a POST). So the replica outlasts nginx.
    keepAliveTimeout: 65_000,
    // Requests that arrive on a kept-alive connection while shutting down are still answered
    // (with Connection: close), as nginx may have sent them before it saw the close.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // No Nest middleware here: no middleware runner on every request.
    skipMiddie: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    bodyParser: false, // Fastify's own JSON parser, under bodyLimit
    logger: LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1) as never,
  });
  // One request hook, in the slot Nest's adapter already runs: every answer carries X-Replica
  // (errors and unknown routes included), and the connection drain sees every request.
  const drain = app.get(ConnectionDrain);
  adapter.setOnRequestHook((req, reply, done) => {
    void reply.header('X-Replica', config.replicaId);
    drain.onRequest(req, reply, done);
  });
  // SIGTERM: answer the in-flight requests, release held locks, stop renewing, close, exit 0
  // (exit rather than re-raising the signal, so supervisors see a clean stop).
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('oversell-lab')
      .setDescription('Grab coupons under switchable lock strategies; audit the oversell from the database.')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json' });

  app.getHttpServer().headersTimeout = 66_000;
  await app.listen(config.port, '0.0.0.0');
}

void bootstrap();
