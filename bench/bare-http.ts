import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNginxServer } from '../tools/stack/servers/nginx-server';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

function startBare(body: string, replica: string): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(join(__dirname, 'bare-http-server.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bare node:http server exited (${code}) before listening`)));
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.send({ body, replica });
  });
}

/**
 * `count` bare node:http servers answering `body` (as many as the stack has replicas), behind an
 * nginx started from the stack's own configuration: what the same bytes cost without a framework.
 */
export async function startBareHttp(body: string, count: number) {
  const prefix = mkdtempSync(join(tmpdir(), 'oversell-bare-'));
  const bare: ChildProcess[] = [];
  try {
    const started = await Promise.all(Array.from({ length: count }, (_, i) => startBare(body, `bare-${i + 1}`)));
    bare.push(...started.map((s) => s.child));
    const ports = started.map((s) => s.port);
    const port = await freePort();
    const nginx = await startNginxServer({ port, upstreamPorts: ports, labPort: ports[0], prefix });
    return {
      url: `http://127.0.0.1:${port}`,
      stop: async () => {
        await nginx.stop('SIGQUIT', 5000);
        bare.forEach((c) => c.disconnect());
        rmSync(prefix, { recursive: true, force: true });
      },
    };
  } catch (error) {
    bare.forEach((c) => c.kill());
    rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
}
