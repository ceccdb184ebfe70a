import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { ConnectionDrain } from './common/connection-drain';
import { loadConfig } from './config/app-config';

async function bootstrap(): Promise<void> {
  const config = loadConfig(); // the one read of the environment: fails before anything starts
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: ['error', 'warn', 'log', 'debug', 'verbose'].slice(
      0,
      ['error', 'warn', 'log', 'debug', 'verbose'].indexOf(config.logLevel) + 1,
    ) as never,
  });
  // Set first, so every answer carries it, errors and unknown routes included.
  app.use((_req: unknown, res: { setHeader(n: string, v: string): void }, next: () => void) => {
    res.setHeader('X-Replica', config.replicaId);
    next();
  });
  app.use(app.get(ConnectionDrain).middleware);
  app.useBodyParser('json', { limit: '16kb', strict: true });
  app.disable('x-powered-by');
  app.set('etag', false);
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

  // nginx keeps idle upstream connections for 60 s (its keepalive_timeout). Node's own default of
  // 5 s would close them first, and a POST nginx sends just as the replica closes the connection
  // comes back as a 502 (nginx never re-sends a POST). So the replica outlasts nginx.
  const server = app.getHttpServer();
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await app.listen(config.port, '0.0.0.0');
}

void bootstrap();
