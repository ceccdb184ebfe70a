import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNginxServer } from '../tools/stack/servers/nginx-server';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `use`, given the URL of `count` bare node:http servers answering `body` (as many as the stack has
 * replicas) behind an nginx started from the stack's own configuration: the same bytes without a framework.
 */
export async function withBareHttp<T>(body: string, count: number, use: (url: string) => Promise<T>): Promise<T> {
  const prefix = mkdtempSync(join(tmpdir(), 'oversell-bare-'));
  const children: ChildProcess[] = [];
  const startBare = (replica: string) => {
    const child = fork(join(__dirname, 'bare-http-server.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
    children.push(child);
    return new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the bare node:http server exited (${code}) before listening`)));
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.send({ body, replica });
    });
  };
  try {
    const ports = await Promise.all(Array.from({ length: count }, (_, i) => startBare(`bare-${i + 1}`)));
    const port = await freePort();
    const nginx = await startNginxServer({ port, upstreamPorts: ports, labPort: ports[0], prefix });
    try {
      return await use(`http://127.0.0.1:${port}`);
    } finally {
      await nginx.stop('SIGQUIT', 5000);
    }
  } finally {
    children.forEach((c) => c.kill());
    rmSync(prefix, { recursive: true, force: true });
  }
}
