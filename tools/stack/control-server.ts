import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { StackControl } from './stack-control';

type Handler = (supervisor: StackControl, params: string[], query: URLSearchParams) => Promise<unknown>;

/** A route that acts, then answers the stack's state as it stands after. */
function thenState(act: (supervisor: StackControl) => Promise<unknown>): Handler {
  return async (s) => {
    await act(s);
    return s.state();
  };
}

// Fault injection for the walkthrough, the bench and the fault tests. Every answer is JSON.
const routes: Array<{ method: string; path: RegExp; handler: Handler }> = [
  { method: 'GET', path: /^\/state$/, handler: (s) => Promise.resolve(s.state()) },
  {
    method: 'POST',
    path: /^\/replicas\/([\w-]+)\/kill$/,
    handler: async (s, [id], query) => {
      const replica = s.replica(id);
      if (!replica) throw new HttpError(404, `no replica ${id}`);
      const killedPid = await replica.kill();
      // The supervisor restarts it; by default answer once the new process is healthy.
      if (query.get('wait') !== '0') {
        await waitUntil(() => replica.pid !== killedPid, 10000);
        await replica.waitHealthy(60000);
      }
      return { id, killedPid, pid: replica.pid, restarts: replica.restarts };
    },
  },
  {
    method: 'POST',
    path: /^\/redis\/stop$/,
    handler: async (s, _params, query) => {
      const signal = query.get('signal') ?? 'SIGTERM';
      if (signal !== 'SIGTERM' && signal !== 'SIGKILL') throw new HttpError(400, `signal must be SIGTERM or SIGKILL`);
      const { stopped } = await s.stopRedis(query.get('key') ?? undefined, signal);
      return { stopped, state: s.state() };
    },
  },
  {
    method: 'POST',
    path: /^\/redis\/start$/,
    handler: async (s, _params, query) => {
      const empty = query.get('empty') ?? '0';
      if (empty !== '0' && empty !== '1') throw new HttpError(400, `empty must be 0 or 1`);
      await s.startRedisAgain({ empty: empty === '1' });
      return s.state();
    },
  },
  { method: 'POST', path: /^\/postgres\/stop$/, handler: thenState((s) => s.stopPostgres()) },
  { method: 'POST', path: /^\/postgres\/start$/, handler: thenState((s) => s.startPostgresAgain()) },
  {
    method: 'POST',
    path: /^\/redlock\/(\d+)\/(stop|start)$/,
    handler: async (s, [index, verb]) => {
      const i = Number(index);
      if (i >= s.config.ports.redlock.length)
        throw new HttpError(404, `no redlock node ${i} (0…${s.config.ports.redlock.length - 1})`);
      await (verb === 'stop' ? s.stopRedlock(i) : s.startRedlockAgain(i));
      return s.state();
    },
  },
];

class HttpError extends Error {
  override readonly name = 'ControlError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new HttpError(504, `not restarted within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(body)}\n`);
}

/** The supervisor's control endpoint on 127.0.0.1; faults run one at a time. */
export function startControlServer(supervisor: StackControl, port: number): Promise<Server> {
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://control');
    const route = routes.find((r) => r.method === req.method && r.path.test(url.pathname));
    if (!route)
      return send(res, 404, {
        code: 'CONTROL.NOT_FOUND',
        message: `${req.method} ${url.pathname} is not a control route`,
      });
    const params = (route.path.exec(url.pathname) ?? []).slice(1);
    const run = queue.then(() => route.handler(supervisor, params, url.searchParams));
    queue = run.catch(() => undefined);
    run.then(
      (body) => send(res, 200, body),
      (error: Error) =>
        send(res, error instanceof HttpError ? error.status : 500, { code: 'CONTROL.FAILED', message: error.message }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
