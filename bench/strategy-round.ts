import { Client } from 'pg';
import type { ApiClient, Audit, Grant } from '@app/contract';
import { summarizeLatencies } from '@app/stock';
import { runRound, type RoundOutcome } from './load-round';
import { isoToMs, utilisation } from './metrics/figures';
import { reconcile, verdict } from './metrics/verdict';
import type { ProgressLine } from '../tools/report/progress-line';
import { scenarioFor, segmentsFor } from './scenarios';
import { drainOrders, type BenchTarget } from './target';
import type { BenchSettings, StrategyResult } from './types';

interface StrategyRun {
  readonly strategy: string;
  readonly workMs: number;
  readonly settings: BenchSettings;
  /** Distinct per strategy and load: every request of the run has its own userId. */
  readonly userPrefix: string;
  readonly label: string;
}

/** One strategy under one load: a warm-up, the measured round on a fresh coupon, its audit, then the sold-out round. */
export async function runStrategy(api: ApiClient, target: BenchTarget, run: StrategyRun, progress: ProgressLine) {
  const { strategy, settings } = run;
  const { successStatus } = scenarioFor(strategy);
  const round = (phase: string, couponId: number, amount: number) =>
    runRound({
      url: `${target.nginxUrl}/coupons/${couponId}/grab?strategy=${strategy}&workMs=${run.workMs}`,
      amount,
      connections: settings.connections,
      userPrefix: `${run.userPrefix}-${phase}`,
      successStatus,
      onProgress: (answered, c) =>
        progress.update(`${run.label} ${phase} ${answered}/${amount}  200:${c.granted} 429:${c.lockTimeout}`),
    });
  const segments = segmentsFor(strategy, settings.segments);
  const newCoupon = (phase: string) =>
    api.createCoupon({ name: `bench ${strategy} ${phase} ${run.userPrefix}`, stock: settings.stock, segments });
  if (settings.warmupRequests > 0) await round('warm-up', (await newCoupon('warm-up')).id, settings.warmupRequests);
  const coupon = await newCoupon('measured');
  const { result: measured, commits } = await countingCommits(target.databaseUrl, async () => {
    const outcome = await round('measured', coupon.id, settings.requests);
    // Accepted orders become grants later: judged once the stream drained (or the wait ran out).
    if (successStatus === 202) await drainOrders(target, coupon.id);
    return outcome;
  });
  const [audit, grants] = await Promise.all([api.audit(coupon.id), api.grants(coupon.id)]);
  const soldOut = audit.stock === 0 ? await round('sold-out', coupon.id, settings.requests) : undefined;
  const result = assembleResult(run, measured, { couponId: coupon.id, audit, grants, commits }, soldOut);
  const p99 = result.latency.granted?.p99.toFixed(0) ?? '–';
  progress.done(`${run.label}: ${result.verdict.label}, ${result.grabsPerSec.toFixed(0)} grabs/s, p99 ${p99} ms`);
  return result;
}

/**
 * `work`, and the transactions that wrote meanwhile, as PostgreSQL counts them: pg_snapshot_xmax is one past the last
 * id completed; every transaction that writes takes an id (and flushes the WAL once), a read-only one takes none.
 */
async function countingCommits<T>(databaseUrl: string, work: () => Promise<T>) {
  const db = new Client({ connectionString: databaseUrl, application_name: 'oversell:bench-commits' });
  await db.connect();
  const sql = 'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next';
  const next = async () => Number((await db.query<{ next: string }>(sql)).rows[0].next);
  try {
    const before = await next();
    const result = await work();
    return { result, commits: (await next()) - before };
  } finally {
    await db.end();
  }
}

/** Pure: everything the report shows about one strategy under one load, from what was measured. */
export function assembleResult(
  run: Pick<StrategyRun, 'strategy' | 'workMs'>,
  measured: RoundOutcome,
  readback: { couponId: number; audit: Audit; grants: readonly Grant[]; commits: number },
  soldOut?: RoundOutcome,
): StrategyResult {
  const { audit, grants, commits } = readback;
  const scenario = scenarioFor(run.strategy);
  const statuses = measured.statuses;
  const reconciliation = reconcile(statuses, grants.length);
  return {
    strategy: run.strategy,
    workMs: run.workMs,
    couponId: String(readback.couponId),
    grabsPerSec: measured.lastGrantAfterMs > 0 ? (statuses.granted * 1000) / measured.lastGrantAfterMs : 0,
    // Until the run's ceilings are known (runner.ts fills it in).
    bound: { ceiling: 'httpPerSec', perSec: 0, share: 0 },
    latency: { granted: summarizeLatencies(measured.grantedMs), turnedAway: summarizeLatencies(measured.turnedAwayMs) },
    statuses,
    audit,
    reconciliation,
    utilisation: utilisation(grants.map((g) => ({ start: isoToMs(g.enteredAt), end: isoToMs(g.leftAt) }))),
    verdict: verdict({ audit, statuses, reconciliation, ...scenario }),
    ...(soldOut && {
      soldOut: {
        requests: soldOut.answered,
        perSec: soldOut.durationMs > 0 ? (soldOut.answered * 1000) / soldOut.durationMs : 0,
        otherAnswers: soldOut.answered - soldOut.statuses.soldOut,
      },
    }),
    ...(measured.machineCpuMs !== undefined &&
      measured.answered > 0 && { cpuMicrosPerRequest: (measured.machineCpuMs * 1000) / measured.answered }),
    commits,
    ...(scenario.successStatus === 202 && {
      acceptToDurable: summarizeLatencies(
        grants.filter((g) => g.acceptedAt).map((g) => isoToMs(g.leftAt) - isoToMs(g.acceptedAt!)),
      ),
    }),
  };
}
