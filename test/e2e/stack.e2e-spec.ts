import { testPort } from '../ports';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { isAlive } from '../../tools/stack/processes';
import { control, http, testStack } from './support/stack';

const run = promisify(execFile);
// The e2e project's testTimeout is not applied per project by Jest 30; stack operations take seconds.
jest.setTimeout(180000);

async function replicasSeenThroughNginx(nginxUrl: string, requests: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < requests; i += 1) {
    const res = await http('GET', `${nginxUrl}/health`);
    expect(res.status).toBe(200);
    seen.push(res.headers.get('x-replica') ?? '(none)');
  }
  return seen;
}

describe('the local stack', () => {
  it('answers on each replica directly, each naming itself in X-Replica', async () => {
    const info = testStack();
    expect(info.replicas.map((r) => r.id)).toEqual(['api-1', 'api-2', 'api-3']);
    for (const replica of info.replicas) {
      const res = await http('GET', `${replica.url}/health`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-replica')).toBe(replica.id);
    }
  });

  it('spreads requests through nginx round robin over all three replicas', async () => {
    const seen = await replicasSeenThroughNginx(testStack().nginxUrl, 9);
    expect(new Set(seen)).toEqual(new Set(['api-1', 'api-2', 'api-3']));
  });

  it('restarts a killed replica, which then answers again directly and through nginx', async () => {
    const before = testStack().replicas.find((r) => r.id === 'api-2')!;
    const answer = await control<{ killedPid: number; pid: number; restarts: number }>(
      testStack(),
      '/replicas/api-2/kill',
    );
    expect(answer.killedPid).toBe(before.pid);
    expect(isAlive(before.pid)).toBe(false);
    expect(answer.pid).not.toBe(before.pid);
    expect(isAlive(answer.pid)).toBe(true);

    const after = testStack().replicas.find((r) => r.id === 'api-2')!;
    expect(after.pid).toBe(answer.pid);
    const res = await http('GET', `${after.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-replica')).toBe('api-2');
    expect(new Set(await replicasSeenThroughNginx(testStack().nginxUrl, 9))).toContain('api-2');
  });

  it('has a docker-compose.yml that validates as it is, and passes ADMIN_TOKEN through', async () => {
    const { ADMIN_TOKEN: _unset, ...without } = process.env;
    await expect(
      run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], { env: without }),
    ).resolves.toBeDefined();
    const { stdout } = await run('docker-compose', ['-f', 'docker-compose.yml', 'config'], {
      env: { ...without, ADMIN_TOKEN: 'compose-check' },
    });
    expect(stdout).toContain('ADMIN_TOKEN: compose-check');
  });

  it('has replicas that refuse to start without an admin token, as compose would run them', async () => {
    const { ADMIN_TOKEN: _unset, ...without } = process.env;
    const replica = run(process.execPath, ['dist/apps/api/apps/api/src/main.js'], {
      env: { ...without, ADMIN_TOKEN: '', PORT: String(testPort(testPort(23199))) },
      timeout: 20_000,
    });
    await expect(replica).rejects.toHaveProperty('stderr', expect.stringContaining('ADMIN_TOKEN must be set'));
  });
});
