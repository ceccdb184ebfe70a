import type { ApiClient, Audit, Grant } from '@app/contract';
import { commandsBetween, commandsPerMaster } from './cluster-commands';
import { fetchLockEvents, lockEventFigures, type LockEventFigures } from './lock-events';
import { runRound, type RoundOutcome } from './load-round';
import { isoToMs } from './metrics/iso-time';
import { whileSampling } from './machine-cpu-probe';
import { machineCpuPerGrant, machineCpuPerAnswer, type MachineCpu } from './metrics/machine-cpu';
import { jainIndex } from './metrics/jain';
import { splitLatency, summariseLatency } from './metrics/latency';
import { reconcile } from './metrics/reconcile';
import { heldShare, utilisation } from './metrics/utilisation';
import { verdict } from './metrics/verdict';
import type { ProgressLine } from './progress';
import { ms } from './report/format';
import { grabQuery, scenarioFor, segmentsFor } from './scenarios';
import type { BenchTarget } from './target';
import type { BenchSettings, SoldOutRound, StrategyResult } from './types';

export interface StrategyRun {
  readonly strategy: string;
  readonly workMs: number;
  readonly settings: BenchSettings;
  /** Distinct per strategy and load: every request of the run has its own userId. */
  readonly userPrefix: string;
  readonly label: string;
}

/**
 * One strategy under one load: a warm-up round on a coupon of its own, the measured round on a
 * fresh coupon, what the database says of it, then (once it sold out) as many grabs again on the
 * sold-out coupon.
 */
export async function runStrategy(
  api: ApiClient,
  target: BenchTarget,
  run: StrategyRun,
  progress: ProgressLine,
): Promise<StrategyResult> {
  const { strategy, settings } = run;
  const segments = segmentsFor(strategy, settings.segments);
  const query = grabQuery(strategy, run.workMs);
  const round = (phase: string, couponId: number, amount: number) =>
    runRound({
      url: `${target.nginxUrl}/coupons/${couponId}/grab?${new URLSearchParams(query).toString()}`,
      amount,
      connections: settings.connections,
      userPrefix: `${run.userPrefix}-${phase}`,
      onProgress: (answered, c) =>
        progress.update(
          `${run.label} ${phase} ${answered}/${amount}  200:${c.granted} 409:${c.soldOut + c.duplicate} 429:${c.lockTimeout} 503:${c.unavailable}`,
        ),
    });
  const newCoupon = (phase: string) =>
    api.createCoupon({ name: `bench ${strategy} ${phase} ${run.userPrefix}`, stock: settings.stock, segments });
  if (settings.warmupRequests > 0) await round('warm-up', (await newCoupon('warm-up')).id, settings.warmupRequests);
  const coupon = await newCoupon('measured');
  // On a cluster, whether segmented's locks spread: what each master served during the round.
  const nodes = strategy === 'segmented' ? target.redisClusterUrls : undefined;
  const commandsBefore = nodes && (await commandsPerMaster(nodes));
  const { result: measured, samples } = await whileSampling(() => round('measured', coupon.id, settings.requests));
  const perMaster = nodes && commandsBetween(commandsBefore!, await commandsPerMaster(nodes));
  const [audit, grants, events] = await Promise.all([
    api.audit(coupon.id),
    api.grants(coupon.id),
    fetchLockEvents(target, coupon.id, measured.startedAt),
  ]);
  // Twice the load's requests: sold-out answers come fast, and a longer round reads their rate steadier.
  const soldOut =
    audit.stock === 0 ? await whileSampling(() => round('sold-out', coupon.id, settings.requests * 2)) : undefined;
  const result = {
    ...assembleResult(
      { ...run, couponId: coupon.id, segments, query },
      measured,
      {
        audit,
        grants,
        lock: lockEventFigures(events),
        machineCpu: machineCpuPerGrant(samples, measured),
        soldOutCpu: soldOut && machineCpuPerAnswer(soldOut.samples, soldOut.result),
      },
      soldOut?.result,
    ),
    ...(perMaster ? { commandsPerMaster: perMaster } : {}),
  };
  progress.done(
    `${run.label}: ${result.verdict.label}${result.verdict.asExpected ? '' : ' (NOT as expected)'}, ` +
      `${result.grabsPerSec.toFixed(0)} grabs/s, ${result.statuses.granted} granted, p99 granted ${ms(result.latency.granted.p99)} ms` +
      (result.soldOut ? `, sold out ${result.soldOut.perSec.toFixed(0)}/s` : '') +
      (perMaster ? `, commands per master ${Object.values(perMaster).join(' / ')}` : ''),
  );
  return result;
}

export interface Readback {
  readonly audit: Audit;
  readonly grants: readonly Grant[];
  readonly lock?: LockEventFigures;
  readonly machineCpu?: MachineCpu;
  /** The sold-out round's, per answer. */
  readonly soldOutCpu?: MachineCpu;
}

/** Pure: everything the report shows about one strategy under one load, from what was measured. */
export function assembleResult(
  run: Omit<StrategyRun, 'label' | 'userPrefix'> & {
    couponId: number;
    segments: number;
    query: Record<string, string>;
  },
  measured: RoundOutcome,
  readback: Readback,
  soldOut?: RoundOutcome,
): StrategyResult {
  const { audit, grants } = readback;
  const lock = readback.lock ?? { held: [] };
  const scenario = scenarioFor(run.strategy);
  const latency = splitLatency(measured.grantedMs, measured.turnedAwayMs);
  const statuses = measured.statuses;
  const intervals = grants.map((g) => ({ start: isoToMs(g.enteredAt), end: isoToMs(g.leftAt) }));
  const reconciliation = reconcile(statuses.granted, grants.length, statuses.errors + statuses.timeouts);
  const grabsPerSec = measured.lastGrantAfterMs > 0 ? (statuses.granted * 1000) / measured.lastGrantAfterMs : 0;
  return {
    strategy: run.strategy,
    workMs: run.workMs,
    couponId: String(run.couponId),
    query: run.query,
    segments: run.segments,
    requests: run.settings.requests,
    durationMs: measured.durationMs,
    requestsPerSec: measured.durationMs > 0 ? (measured.answered * 1000) / measured.durationMs : 0,
    grabsPerSec,
    bound: UNBOUND,
    latency,
    statuses,
    audit,
    reconciliation,
    utilisation: {
      ...utilisation(intervals),
      ...(lock.held.length > 0 ? { lockHeldShare: heldShare(lock.held, intervals) } : {}),
    },
    fairness: {
      maxLatencyMs: latency.all.max,
      spreadMs: latency.all.p99 - latency.all.p50,
      latencyJain: jainIndex([...measured.grantedMs, ...measured.turnedAwayMs]),
      ...(lock.maxWaitMs === undefined ? {} : { maxLockWaitMs: lock.maxWaitMs }),
    },
    verdict: verdict({
      audit,
      statuses,
      reconciliation,
      promisesExclusion: scenario.promisesExclusion,
      expected: scenario.expectedFlags,
    }),
    ...(soldOut ? { soldOut: soldOutRound(soldOut, readback.soldOutCpu) } : {}),
    ...(readback.machineCpu ? { machineCpu: readback.machineCpu } : {}),
  };
}

/** Until the run's ceilings are known (runner.ts fills it in). */
const UNBOUND = { ceiling: 'httpPerSec', perSec: 0, share: 0 } as const;

function soldOutRound(outcome: RoundOutcome, machineCpu?: MachineCpu): SoldOutRound {
  const perSec = outcome.durationMs > 0 ? (outcome.answered * 1000) / outcome.durationMs : 0;
  return {
    requests: outcome.answered,
    perSec,
    latency: summariseLatency([...outcome.grantedMs, ...outcome.turnedAwayMs]),
    otherAnswers: outcome.answered - outcome.statuses.soldOut,
    bound: UNBOUND,
    ...(machineCpu ? { machineCpu } : {}),
  };
}
