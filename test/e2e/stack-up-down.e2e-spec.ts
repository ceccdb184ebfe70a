import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { isAlive, isSupervisor } from '../../tools/stack/processes';
import { serverPids } from '../../tools/stack/launcher';
import { isPortFree } from '../../tools/stack/ports';
import type { StackInfo } from '../../tools/stack/stack';
import { readStack } from '../../tools/stack/stack';
import { TEST_PORT_OFFSET, testPort } from '../ports';
import { http } from './support/stack';

const run = promisify(execFile);
// The e2e project's testTimeout is not applied per project by Jest 30; stack operations take seconds.
jest.setTimeout(180000);
const ROOT = resolve(__dirname, '..', '..');
const DIR = join(ROOT, '.stack', `up-down-test${TEST_PORT_OFFSET ? `-${TEST_PORT_OFFSET}` : ''}`);
// `up`/`down` are checked on the stack's default ports (shifted by TEST_PORT_OFFSET), in a
// directory of their own: the e2e stack holds the test ports. It is skipped while a developer's
// stack runs on them.
const PORTS = [28080, 23001, 23002, 23003, 25432, 26379, 26381, 26382, 26383, 26384, 26385, 28099, 28090].map(testPort);
const PORT_ENV = {
  NGINX_PORT: PORTS[0],
  API_PORT_BASE: PORTS[1],
  PG_PORT: PORTS[4],
  REDIS_PORT: PORTS[5],
  REDLOCK_PORT_BASE: PORTS[6],
  CONTROL_PORT: PORTS[11],
  LAB_PORT: PORTS[12],
  LAB_SPARE_PORT_BASE: testPort(26800),
};

function cli(command: 'up' | 'down') {
  const env: NodeJS.ProcessEnv = { ...process.env, STACK_DIR: DIR };
  for (const [name, port] of Object.entries(PORT_ENV)) {
    if (TEST_PORT_OFFSET) env[name] = String(port);
    else delete env[name];
  }
  return run(process.execPath, ['--import', require.resolve('tsx'), join(ROOT, 'tools/stack/cli.ts'), command], {
    cwd: ROOT,
    env,
    timeout: 180000,
  });
}

// The launcher's own list, which `down` stops, checked against every pid stack.json records.
const allPids = (info: StackInfo) => [info.supervisorPid, ...serverPids(info)];

/** Every number under `value`, found by walking it: independent of the launcher's list. */
const numbersIn = (value: unknown): number[] =>
  typeof value === 'number'
    ? [value]
    : value !== null && typeof value === 'object'
      ? Object.values(value).flatMap(numbersIn)
      : [];

function developerStackRuns(): boolean {
  try {
    const running = JSON.parse(readFileSync(join(ROOT, '.stack', 'stack.json'), 'utf8')) as StackInfo;
    return isSupervisor(running.supervisorPid);
  } catch {
    return false;
  }
}

describe('stack:up then stack:down', () => {
  beforeAll(() => rmSync(DIR, { recursive: true, force: true }));

  (developerStackRuns() ? it.skip : it)(
    'starts a healthy stack in the background, says so when asked twice, and leaves nothing running after down',
    async () => {
      await cli('up');
      const info = await readStack(DIR);
      expect(info).toBeDefined();
      const pids = allPids(info!);
      expect(pids).toHaveLength(13);
      const recorded = [...numbersIn(info!.pids), ...info!.replicas.map((r) => r.pid)];
      expect([...serverPids(info!)].sort()).toEqual(recorded.sort());
      expect(pids.every(isAlive)).toBe(true);
      expect((await http('GET', `${info!.nginxUrl}/health`)).status).toBe(200);
      expect(info!.labUrl).toBe(`${info!.nginxUrl}/lab/`);
      expect((await http('GET', info!.labUrl!)).status).toBe(200);

      const again = await cli('up');
      expect(again.stdout).toContain(`already up (supervisor pid ${info!.supervisorPid})`);

      const down = await cli('down');
      expect(down.stdout).toContain('is stopped');
      expect(pids.filter(isAlive)).toEqual([]);
      expect((await Promise.all(PORTS.map(isPortFree))).every(Boolean)).toBe(true);
      expect(await readStack(DIR)).toBeUndefined();
    },
  );
});
