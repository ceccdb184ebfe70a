import { request } from 'node:http';
import { stackDir } from './config';
import { liveStack, startDetached, stopDetached } from './launcher';
import type { StackInfo } from './stack-file';

// The programmatic face of the local stack, for tests, the bench and the walkthrough.
export type { StackInfo } from './stack-file';

/** The live stack described by `dir`/stack.json (nginx answering), or undefined. */
export function readStack(dir?: string): Promise<StackInfo | undefined> {
  return liveStack(stackDir(dir ? { STACK_DIR: dir } : process.env));
}

export interface EnsuredStack {
  readonly info: StackInfo;
  /** True when this call started the stack. */
  readonly started: boolean;
  /** Stops the stack only if this call started it. */
  stop(): Promise<void>;
}

/** Uses the live stack in `dir`, or starts one in the background (as `stack:up` does). */
export async function ensureStack(opts: { dir?: string; env?: NodeJS.ProcessEnv } = {}): Promise<EnsuredStack> {
  const env = { ...process.env, ...opts.env, ...(opts.dir ? { STACK_DIR: opts.dir } : {}) };
  const dir = stackDir(env);
  const running = await liveStack(dir);
  if (running) return { info: running, started: false, stop: () => Promise.resolve() };
  const info = await startDetached(env);
  return {
    info,
    started: true,
    stop: async () => {
      await stopDetached(dir);
    },
  };
}

/** The message of the control endpoint's error answer ({ code, message }), when the body is one. */
function errorMessage(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string'
    ? body.message
    : undefined;
}

/** POSTs to the stack's control endpoint (GET for /state) and returns its JSON; throws on non-2xx. */
export function control<T = unknown>(info: Pick<StackInfo, 'controlUrl'>, path: string): Promise<T> {
  const method = path.split('?')[0] === '/state' ? 'GET' : 'POST';
  return new Promise((resolve, reject) => {
    const req = request(`${info.controlUrl}${path}`, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => {
        const parsed: unknown = body ? JSON.parse(body) : undefined;
        if ((res.statusCode ?? 500) >= 300)
          reject(new Error(`control ${method} ${path}: ${res.statusCode} ${errorMessage(parsed) ?? body}`));
        else resolve(parsed as T);
      });
    });
    req.once('error', reject);
    req.end();
  });
}
