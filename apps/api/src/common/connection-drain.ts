import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

interface DrainResponse {
  headersSent: boolean;
  setHeader(name: string, value: string): void;
  once(event: 'close', listener: () => void): void;
}

/**
 * Graceful shutdown, HTTP side. `server.close()` waits for every connection to end, and keep-alive
 * connections (nginx pools them) would linger idle until their timeout. Once shutdown begins,
 * every answer still to come carries `Connection: close` and idle connections are closed, so the
 * server closes as soon as its in-flight requests have been answered.
 */
@Injectable()
export class ConnectionDrain implements BeforeApplicationShutdown {
  private draining = false;
  private readonly open = new Set<DrainResponse>();

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** Fastify onRequest hook: tracks the responses not yet sent. */
  readonly onRequest = (_req: unknown, reply: { raw: DrainResponse }, done: () => void): void => {
    const res = reply.raw;
    if (this.draining) res.setHeader('Connection', 'close');
    else {
      this.open.add(res);
      res.once('close', () => this.open.delete(res));
    }
    done();
  };

  /** Runs before Nest closes the HTTP server (and long before the database and Redis connections). */
  beforeApplicationShutdown(): void {
    this.draining = true;
    for (const res of this.open) if (!res.headersSent) res.setHeader('Connection', 'close');
    this.open.clear();
    (this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined)?.closeIdleConnections();
  }
}
