import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedisServer } from '../../tools/stack/servers/redis-server';
import { machineInfo } from '../machine';
import { fileStamp } from '../report/format';
import { medianRound, roundOrder, type LockBenchResult } from './aggregate';
import { compileWorker } from './compiled-worker';
import { SETTLE_MS, WARM_UP_MS } from './critical-section';
import { contenderNames, leaseMs, SECTIONS_PER_TURN, type ContenderName } from './contenders';
import type { CeilingReading } from './cpu-cost';
import { renderLockMarkdown, renderLockTable, type LockBenchReport } from './render';
import { runContender } from './run-contender';
import { sectionCeiling } from './section-ceiling';
import { handoffCeiling, measureSectionAlone, measureTurns, runCeiling, turnCeiling } from './turn-ceiling';
import { WorkerPool } from './worker-pool';

// npm run bench:locks -- [--seconds 5] [--settle 5] [--rounds 3] [--waiters 50] [--processes 3] [--contenders a,b] [--port 26700] [--out DIR]
function options() {
  const { values } = parseArgs({
    options: {
      waiters: { type: 'string', default: '50' },
      processes: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '5' },
      settle: { type: 'string', default: String(SETTLE_MS / 1000) },
      rounds: { type: 'string', default: '3' },
      contenders: { type: 'string', default: contenderNames.join(',') },
      port: { type: 'string', default: '26700' },
      out: { type: 'string', default: 'bench/results' },
    },
  });
  const positive = (name: string, raw: string) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
    return n;
  };
  const nonNegative = (name: string, raw: string) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < 0)
      throw new Error(`--${name} must be a number ≥ 0, got ${raw}`);
    return n;
  };
  const contenders = values.contenders
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const unknown = contenders.filter((c) => !(contenderNames as readonly string[]).includes(c));
  if (unknown.length > 0)
    throw new Error(`unknown contenders: ${unknown.join(', ')} (known: ${contenderNames.join(', ')})`);
  return {
    waiters: positive('waiters', values.waiters),
    processes: positive('processes', values.processes),
    seconds: positive('seconds', values.seconds),
    settle: nonNegative('settle', values.settle),
    rounds: positive('rounds', values.rounds),
    contenders: contenders as ContenderName[],
    port: positive('port', values.port),
    out: values.out,
  };
}

async function main(): Promise<void> {
  const o = options();
  const startedAt = new Date().toISOString();
  const workerPath = await compileWorker(`.stack/bench-locks-${o.port}-worker`); // per port, as the Redis is
  const redis = await startRedisServer({ port: o.port, dir: `.stack/bench-locks-${o.port}` });
  const redisUrl = `redis://127.0.0.1:${o.port}`;
  const stopOnSignal = () => {
    void redis.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const rounds = new Map<ContenderName, LockBenchResult[]>(o.contenders.map((c) => [c, []]));
  // Fresh processes for every measurement: nothing one lock leaves behind in a process (Node's
  // async context tracking, which a reentrant lock turns on for good, its JIT state) slows the next.
  const inFreshProcesses = async <T>(measure: (pool: WorkerPool) => Promise<T>, size = o.processes): Promise<T> => {
    const pool = new WorkerPool(size, workerPath, o.settle * 1000);
    try {
      return await measure(pool);
    } finally {
      await pool.close();
    }
  };
  const sectionReadings: CeilingReading[] = [];
  const turnReadings: CeilingReading[] = [];
  const handoffReadings: CeilingReading[] = [];
  const runReadings: CeilingReading[] = [];
  // Ours holds the lock this many times in a row at most (the take, then 16 hand-offs by default): the run ring runs as many per turn.
  const sectionsPerTurn = SECTIONS_PER_TURN;
  // The hand-off ring's leases: the contenders' lease for both (ours has no claim lease any more).
  const handOffLeases = { leaseMs, claimMs: leaseMs };
  try {
    for (let round = 0; round < o.rounds; round += 1) {
      process.stderr.write(`round ${round + 1}/${o.rounds} ceiling: the section alone, no lock, ${o.seconds} s … `);
      sectionReadings.push(await inFreshProcesses((pool) => measureSectionAlone(pool, redisUrl, o.seconds), 1));
      process.stderr.write(`${sectionReadings[round].perSec.toFixed(0)} sections/s\n`);
      process.stderr.write(
        `round ${round + 1}/${o.rounds} turn ceiling: the section in turn, ${o.processes} processes … `,
      );
      turnReadings.push(await inFreshProcesses((pool) => measureTurns(pool, redisUrl, o.seconds)));
      process.stderr.write(`${turnReadings[round].perSec.toFixed(0)} turns/s\n`);
      process.stderr.write(
        `round ${round + 1}/${o.rounds} hand-off ring: the turn ring with a claim and a set-and-wake … `,
      );
      handoffReadings.push(await inFreshProcesses((pool) => measureTurns(pool, redisUrl, o.seconds, 1, handOffLeases)));
      process.stderr.write(`${handoffReadings[round].perSec.toFixed(0)} turns/s\n`);
      process.stderr.write(`round ${round + 1}/${o.rounds} run ceiling: ${sectionsPerTurn} sections per turn … `);
      runReadings.push(await inFreshProcesses((pool) => measureTurns(pool, redisUrl, o.seconds, sectionsPerTurn)));
      process.stderr.write(`${runReadings[round].perSec.toFixed(0)} sections/s\n`);
      for (const contender of roundOrder(o.contenders, round)) {
        process.stderr.write(
          `round ${round + 1}/${o.rounds} ${contender}: ${o.processes} × ${o.waiters} waiters, ${o.seconds} s … `,
        );
        const result = await inFreshProcesses((pool) =>
          runContender(pool, { contender, redisUrl, waiters: o.waiters, seconds: o.seconds }),
        );
        process.stderr.write(
          `${result.grantsPerSec.toFixed(0)} grants/s${result.errors.length ? `, errors: ${result.errors.join('; ')}` : ''}\n`,
        );
        rounds.get(contender)!.push(result);
      }
    }
  } finally {
    await redis.stop();
  }
  const results = o.contenders.map((c) => medianRound(rounds.get(c)!));
  const report: LockBenchReport = {
    startedAt,
    machine: machineInfo(),
    settings: {
      processes: o.processes,
      waiters: o.waiters,
      seconds: o.seconds,
      settleSeconds: o.settle,
      rounds: o.rounds,
      leaseMs,
    },
    method:
      `One private redis-server (port ${o.port}); ${o.rounds} round(s), each running the contenders one after another (the first rotating). ` +
      `Per contender and round: ${o.processes} fresh Node processes running the worker compiled to plain JavaScript (esbuild, as the app ships compiled; not tsx), each with ${o.waiters} concurrent waiters looping acquire → GET and SET of a counter ` +
      `on a separate connection → release on one resource for ${o.seconds} s (every waiter loops until the window closes; a section counts when ` +
      `entered inside it); each worker warms up on a resource of its own first (for ${WARM_UP_MS / 1000} s, so that V8 has compiled each lock's hot code), then all start on one clock reading and run ${o.settle} s on the measured resource before the window opens (its settle: no section entered in it counts, though a wait under way at the opening is measured whole, and its sections go to a counter of their own, checked as the window's is). Wait: from wanting the lock ` +
      `to entering the critical section, failed attempts included. Figures from each contender's median round by grants/s, except the max wait, ` +
      `failed acquisitions, the counter check, Jain's index and the spread per process, which take the worst round; ours against the best peer is the median of the rounds' ratios (each round runs both, minutes apart at most). Jain's index is over every waiter of every process. Peers at their ` +
      `defaults (redis-semaphore Mutex; @sesamecare-oss/redlock on a single instance); redlock:retry-10s has retries filling our 10 s wait; ` +
      `owner-checked:no-local-handoff is ours with LOCK_HANDOFF_LIMIT=0. Lease ${leaseMs} ms. ` +
      `CPU per grant: the worker processes' user + system time over the window (process.cpuUsage at its start and end) and Redis's (INFO cpu at the same instants), over the window's grants; the ceilings' likewise: per section of the section alone (its one worker process), per turn of the turn ring and of the hand-off ring, per section of the run ring. ` +
      `Waiting for a CPU (Linux): each worker's main thread, where its event loop runs, read from /proc/self/schedstat and /proc/self/status at the window's start and end: run-queue time as a share of run-queue plus on-CPU time, over the contender's processes (the rings' fastest reading likewise), and involuntary context switches per grant. ` +
      `The lock stayed in its process: of the window's grants after its first, the share whose previous grant ran in the same process, the grants ordered by the counter value each section read; the rest are hand-offs between processes, each a wake-up in another process.`,
    ceiling: sectionCeiling(...readingsAndCosts(sectionReadings)),
    turnCeiling: turnCeiling(...readingsAndCosts(turnReadings), waitsOf(turnReadings)),
    handoffCeiling: handoffCeiling(...readingsAndCosts(handoffReadings), waitsOf(handoffReadings)),
    runCeiling: runCeiling(sectionsPerTurn, ...readingsAndCosts(runReadings), waitsOf(runReadings)),
    results,
  };
  console.log(renderLockTable(report));
  mkdirSync(o.out, { recursive: true });
  const base = join(o.out, `locks-${fileStamp(startedAt)}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, renderLockMarkdown(report));
  console.log(`\nreport: ${base}.md\n        ${base}.json`);
}

function readingsAndCosts(readings: readonly CeilingReading[]) {
  return [readings.map((r) => r.perSec), readings.map((r) => r.cpu)] as const;
}

function waitsOf(readings: readonly CeilingReading[]) {
  return readings.map((r) => r.cpuWait);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
