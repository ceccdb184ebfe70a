import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedisServer } from '../../tools/stack/servers/redis-server';
import { runCommand } from '../../tools/stack/run-command';
import { fileStamp } from '../../tools/report/format';
import { medianRound, type LockBenchResult } from './aggregate';
import { contenderNames, leaseMs, NO_LOCK, type ContenderName } from './contenders';
import { measure } from './measure';
import { int } from '../options';
import { lockReport, renderLockTable } from './render';

// npm run bench:locks -- [--processes 3] [--waiters 50] [--seconds 5] [--warm-up 3] [--rounds 3]
//   [--port 26700] [--contenders a,b] [--out bench/results]
// Each option's default and its largest value.
const NUMBERS = {
  processes: [3, 256],
  waiters: [50, 100_000],
  seconds: [5, 86_400],
  'warm-up': [3, 86_400],
  rounds: [3, 1000],
  port: [26700, 65_535],
} as const;

function options() {
  const names = [...Object.keys(NUMBERS), 'contenders', 'out'];
  const { values } = parseArgs({ options: Object.fromEntries(names.map((name) => [name, { type: 'string' }])) });
  const [processes, waiters, seconds, warmUpSeconds, rounds, port] = Object.entries(NUMBERS).map(([name, [d, max]]) => {
    const raw = values[name];
    return raw === undefined ? d : int(name, `${raw}`, 1, max);
  });
  const contenders = (values.contenders ? `${values.contenders}`.split(',') : contenderNames) as ContenderName[];
  const unknown = contenders.filter((c) => !contenderNames.includes(c));
  if (unknown.length > 0)
    throw new Error(`unknown contenders: ${unknown.join(', ')} (known: ${contenderNames.join(', ')})`);
  const settings = { processes, waiters, seconds, warmUpSeconds, rounds, leaseMs };
  return { settings, port, contenders, out: `${values.out ?? 'bench/results'}` };
}

async function main(): Promise<void> {
  const { settings, port, contenders, out } = options();
  const startedAt = new Date().toISOString();
  const redis = await startRedisServer({ port, dir: `.stack/bench-locks-${port}` });
  const stopOnSignal = () => void redis.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const measured: LockBenchResult[] = [];
  try {
    for (let round = 1; round <= settings.rounds; round += 1) {
      for (const name of [NO_LOCK, ...contenders] as const) {
        const r = await measure({ ...settings, port }, name);
        measured.push(r);
        const progress = `round ${round}/${settings.rounds} ${name}: ${r.grantsPerSec.toFixed(0)} grants/s`;
        process.stderr.write(`${[progress, ...r.errors].join(', ')}\n`);
      }
    }
  } finally {
    await redis.stop();
  }
  const medians = [NO_LOCK, ...contenders].map((name) => medianRound(measured.filter((r) => r.contender === name)));
  const report = lockReport(startedAt, settings, medians);
  console.log(renderLockTable(report));
  mkdirSync(out, { recursive: true });
  const path = join(out, `locks-${fileStamp(startedAt)}.json`);
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nreport: ${path}`);
  if (medians.some((r) => r.errors.length > 0 || !r.counterMatches)) process.exitCode = 1;
}

runCommand(main);
