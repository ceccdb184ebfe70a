import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedisServer } from '../../tools/stack/servers/redis-server';
import { runCommand } from '../../tools/stack/run-command';
import { fileStamp } from '../report/format';
import { medianRound, roundOrder, type LockBenchResult } from './aggregate';
import { compileWorker } from './compiled-worker';
import { contenderNames, leaseMs, NO_LOCK, type ContenderName } from './contenders';
import { measure, type Measured } from './measure';
import { lockReport, renderLockMarkdown, renderLockTable } from './render';

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
        const r = await measure(workerPath, o, name);
        rounds.get(name)!.push(r);
        process.stderr.write(`${r.grantsPerSec.toFixed(0)} grants/s${r.errors.map((e) => `, ${e}`).join('')}\n`);
      }
    }
  } finally {
    await redis.stop();
  }
  const medians = [...rounds.values()].map(medianRound); // the section alone's first
  const report = lockReport(startedAt, o.settings, medians);
  console.log(renderLockTable(report));
  mkdirSync(o.out, { recursive: true });
  const base = join(o.out, `locks-${fileStamp(startedAt)}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, renderLockMarkdown(report));
  console.log(`\nreport: ${base}.md\n        ${base}.json`);
  if (medians.some((r) => r.errors.length > 0 || !r.counterMatches)) process.exitCode = 1;
}

runCommand(main);
