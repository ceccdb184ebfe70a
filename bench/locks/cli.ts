import { Redis } from 'ioredis';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedisServer } from '../../tools/stack/servers/redis-server';
import { runCommand } from '../../tools/stack/run-command';
import { fileStamp } from '../report/format';
import { aggregate, medianRound, roundOrder, type LockBenchResult } from './aggregate';
import { compileWorker } from './compiled-worker';
import { CONTENDERS, contenderNames, leaseMs, NO_LOCK, type ContenderName } from './contenders';
import { lockReport, renderLockMarkdown, renderLockTable } from './render';
import { runWorkers } from './run-workers';

type Measured = ContenderName | typeof NO_LOCK;
const NUMBERS = { processes: 3, waiters: 50, seconds: 5, 'warm-up': 3, rounds: 3, port: 26700 };

// npm run bench:locks -- [--processes 3] [--waiters 50] [--seconds 5] [--warm-up 3] [--rounds 3]
//   [--port 26700] [--contenders a,b] [--out bench/results]
function options() {
  const defaults = { ...NUMBERS, contenders: contenderNames.join(','), out: 'bench/results' };
  const { values } = parseArgs({
    options: Object.fromEntries(
      Object.entries(defaults).map(([name, d]) => [name, { type: 'string', default: `${d}` }]),
    ),
  });
  const value = (name: string) => `${values[name]}`;
  const [processes, waiters, seconds, warmUpSeconds, rounds, port] = Object.keys(NUMBERS).map((name) => {
    const n = Number(value(name));
    if (Number.isInteger(n) && n > 0) return n;
    throw new Error(`--${name} must be a positive integer, got ${value(name)}`);
  });
  const contenders = value('contenders').split(',').filter(Boolean) as ContenderName[];
  const unknown = contenders.filter((c) => !contenderNames.includes(c));
  if (unknown.length > 0)
    throw new Error(`unknown contenders: ${unknown.join(', ')} (known: ${contenderNames.join(', ')})`);
  const settings = { processes, waiters, seconds, warmUpSeconds, rounds, leaseMs };
  return { ...settings, settings, port, contenders, out: value('out') };
}

type Options = ReturnType<typeof options>;

/** One measurement in fresh processes; the section alone runs in one process with one waiter. */
async function measure(o: Options, workerPath: string, name: Measured): Promise<LockBenchResult> {
  const [processes, waiters] = name === NO_LOCK ? [1, 1] : [o.processes, o.waiters];
  const [redisUrl, resource] = [`redis://127.0.0.1:${o.port}`, `bench:locks:${name}:${Date.now()}`];
  const timing = { warmUpMs: o.warmUpSeconds * 1000, windowMs: o.seconds * 1000 };
  const reports = await runWorkers(workerPath, processes, { contender: name, redisUrl, waiters, resource }, timing);
  const redis = new Redis(redisUrl);
  const counters = await redis
    .mget(`${resource}:counter:window`, `${resource}:counter:warm-up`)
    .finally(() => redis.quit());
  const [counter, warmUpCounter] = counters.map(Number);
  const { ours, atDefaults } = name === NO_LOCK ? { ours: false, atDefaults: true } : CONTENDERS[name];
  return aggregate(name, { ours, atDefaults }, reports, { counter, warmUpCounter }, timing.windowMs);
}

function method(o: Options): string {
  return (
    `Each round: the section alone (one process, one waiter, no lock), then each contender in ${o.processes} fresh ` +
    `processes × ${o.waiters} waiters looping acquire → GET and SET of a counter → release on one resource ` +
    `(${o.warmUpSeconds} s warm-up, ${o.seconds} s counted), the first contender rotating. Waits run from wanting the ` +
    'lock to entering the section. Median round by grants/s; the longest wait, failures, counter checks and the ' +
    `lowest Jain over every round. Peers at their defaults; the ablation is ours with handoffLimit 0.`
  );
}

async function main(): Promise<void> {
  const o = options();
  const startedAt = new Date().toISOString();
  const workerPath = await compileWorker(`.stack/bench-locks-${o.port}-worker`);
  const redis = await startRedisServer({ port: o.port, dir: `.stack/bench-locks-${o.port}` });
  const stopOnSignal = () => void redis.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const rounds = new Map<Measured, LockBenchResult[]>([NO_LOCK, ...o.contenders].map((n) => [n as Measured, []]));
  try {
    for (let round = 0; round < o.rounds; round += 1) {
      for (const name of [NO_LOCK, ...roundOrder(o.contenders, round)] as const) {
        process.stderr.write(`round ${round + 1}/${o.rounds} ${name} … `);
        const result = await measure(o, workerPath, name);
        rounds.get(name)!.push(result);
        process.stderr.write(
          `${result.grantsPerSec.toFixed(0)} grants/s${result.errors.map((e) => `, ${e}`).join('')}\n`,
        );
      }
    }
  } finally {
    await redis.stop();
  }
  const [alone, ...results] = [...rounds.values()].map(medianRound);
  const report = lockReport(startedAt, o.settings, method(o), alone, results);
  console.log(renderLockTable(report));
  mkdirSync(o.out, { recursive: true });
  const base = join(o.out, `locks-${fileStamp(startedAt)}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, renderLockMarkdown(report));
  console.log(`\nreport: ${base}.md\n        ${base}.json`);
  if ([alone, ...results].some((r) => r.errors.length > 0 || !r.counterMatches)) process.exitCode = 1;
}

runCommand(main);
