import { mkdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { startChild, waitFor, type RunningChild } from './child';

export interface RedisServerOptions {
  readonly port: number;
  /** Working directory (no RDB; an AOF only when `args` ask for one). */
  readonly dir: string;
  /** Extra arguments, e.g. ['--replicaof', '127.0.0.1', '26379']. */
  readonly args?: string[];
  readonly binary?: string;
  /** Own process group, so a terminal's Ctrl-C reaches only the supervisor that owns it. */
  readonly detached?: boolean;
}

/**
 * A private redis-server on 127.0.0.1, ready to take commands. Refuses a port something already
 * listens on: a stray server there would answer the readiness check in place of ours.
 */
export async function startRedisServer(options: RedisServerOptions): Promise<RunningChild> {
  if (await portAnswers(options.port)) {
    throw new Error(`port ${options.port} is taken: something already listens there, not a private redis-server`);
  }
  mkdirSync(options.dir, { recursive: true });
  const args = [
    '--port',
    String(options.port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    options.dir,
    ...(options.args ?? []),
  ];
  const server = startChild(`redis:${options.port}`, options.binary ?? 'redis-server', args, {
    detached: options.detached ?? false,
  });
  server.child.stdout?.resume();
  server.child.stderr?.resume();
  const ready = waitFor(`redis-server on ${options.port}`, () => redisPing(options.port));
  await Promise.race([
    ready,
    server.exited.then((how) => {
      throw new Error(`redis-server on ${options.port} exited early (${how}); is the port free?`);
    }),
  ]);
  return server;
}

/** True when a Redis on `port` answers PING (raw socket: no client library needed). */
export function redisPing(port: number, host = '127.0.0.1'): Promise<boolean> {
  return probePort(port, host, (socket, done) => {
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.write('PING\r\n');
  });
}

/** True when something accepts connections on `port`. */
function portAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return probePort(port, host, (_socket, done) => done(true));
}

/** Connects to `port` and lets `answer` judge the open socket; an error or a second's silence is false. */
function probePort(
  port: number,
  host: string,
  answer: (socket: Socket, done: (ok: boolean) => void) => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => answer(socket, done));
  });
}
