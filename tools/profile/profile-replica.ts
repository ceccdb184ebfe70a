// One extra replica under `node --cpu-prof`, hit directly by autocannon on the running stack.
// usage: tsx tools/profile/profile-replica.ts ENTRY_MAIN_JS OUT_DIR strategies|soldout|stream|atomic [REQUESTS] [PORT]
import autocannon from 'autocannon';
import { ApiClient } from '@app/contract';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stackDir } from '../stack/config';
import { waitFor } from '../stack/servers/child';
import type { StackInfo } from '../stack/stack';

const [entry, dir, scenario, requestsArg, portArg] = process.argv.slice(2);
const requests = Number(requestsArg ?? 5000);
const port = Number(portArg ?? 23052);
const info = JSON.parse(readFileSync(join(stackDir(), 'stack.json'), 'utf8')) as StackInfo;
const api = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });

/** The process's CPU time (user + system) in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `amount` requests, 48 connections; per second from the start to the last answer. */
async function load(url: string, path: string, amount: number, body?: (n: number) => string) {
  let next = 0;
  let lastAnswerAt = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: 48,
        amount,
        requests: [
          {
            method: body ? 'POST' : 'GET',
            setupRequest: (req) => {
              const n = next++;
              return { ...req, path, headers: { 'content-type': 'application/json' }, body: body?.(n) };
            },
          },
        ],
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', () => (lastAnswerAt = performance.now()));
  });
  return { perSec: (amount * 1000) / (lastAnswerAt - started), codes: result.statusCodeStats };
}

async function main(): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, entry], {
    env: {
      ...process.env,
      PORT: String(port),
      REPLICA_ID: 'api-profiled',
      DATABASE_URL: info.databaseUrl,
      REDIS_URL: info.redisUrl,
      ADMIN_TOKEN: info.adminToken,
      CHAOS_ENABLED: 'true',
      LOG_LEVEL: 'error',
    },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor('the profiled replica', async () => (await fetch(`${url}/health`)).status === 200, 60_000, 100);
  const warmup = Math.round(requests / 5);
  const run = Date.now().toString(36);
  let path = '/strategies';
  let body: ((tag: string) => (n: number) => string) | undefined;
  if (scenario !== 'strategies') {
    const strategy = scenario === 'stream' ? 'redis-stream' : 'db-atomic';
    // soldout: one unit, sold by the warm-up; the measured grabs are answered from the memo.
    const { id } = await api.createCoupon({ stock: scenario === 'soldout' ? 1 : requests + warmup });
    path = `/coupons/${id}/grab?strategy=${strategy}&workMs=0`;
    body = (tag) => (n) => JSON.stringify({ userId: `profile-${run}-${tag}-${n}` });
  }
  await load(url, path, warmup, body?.('w'));
  const fromUs = Number(process.hrtime.bigint() / 1000n); // the profile's clock: monotonic, in µs
  const cpu = cpuMs(child.pid!);
  const measured = await load(url, path, requests, body?.('m'));
  const cpuUsPerAnswer = Math.round(((cpuMs(child.pid!) - cpu) * 1000) / requests);
  const toUs = Number(process.hrtime.bigint() / 1000n);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  const window = { scenario, requests, fromUs, toUs, cpuUsPerAnswer, ...measured };
  writeFileSync(join(dir, 'load.json'), JSON.stringify(window, null, 1));
  console.log(JSON.stringify({ scenario, perSec: Math.round(measured.perSec), cpuUsPerAnswer }));
}

void main();
