import { ApiClient } from './api-client';
import { fetchLockEvents, lockEventFigures, type LockEventFigures } from './lock-events';
import { runRound, type RoundOutcome } from './load-round';
import { machineInfo, methodText } from './machine';
import { isoToMs } from './metrics/iso-time';
import { jainIndex } from './metrics/jain';
import { summariseLatency } from './metrics/latency';
import { reconcile } from './metrics/reconcile';
import { heldShare, utilisation } from './metrics/utilisation';
import { verdict } from './metrics/verdict';
import { ProgressLine } from './progress';
import { ms } from './report/format';
import { grabQuery, scenarioFor, segmentsFor } from './scenarios';
import type { BenchReport, BenchSettings, Fairness, GrantRow, StatusCounts, StrategyResult } from './types';

/** Where the load goes: the stack as .stack/stack.json describes it. */
export interface BenchTarget {
  readonly nginxUrl: string;
  readonly replicaUrls: readonly string[];
  readonly adminToken: string;
}

/** Strategies to run: the requested ones in the order asked, or all the API lists. */
export async function resolveStrategies(api: ApiClient, requested: readonly string[]): Promise<string[]> {
  const listed = (await api.strategies()).map((s) => s.name);
  if (requested.length === 0) return listed;
  const unknown = requested.filter((name) => !listed.includes(name));
  if (unknown.length > 0)
    throw new Error(`unknown strategies: ${unknown.join(', ')} (the API lists: ${listed.join(', ')})`);
  return requested.slice();
}

export async function runBench(
  target: BenchTarget,
  settings: BenchSettings,
  progress = new ProgressLine(),
): Promise<BenchReport> {
  const api = new ApiClient(target.nginxUrl, target.adminToken);
  const strategies = await resolveStrategies(api, settings.strategies);
  const startedAt = new Date().toISOString();
  const runId = Date.now().toString(36);
  const results: StrategyResult[] = [];
  for (const [index, strategy] of strategies.entries()) {
    const label = `[${index + 1}/${strategies.length}] ${strategy}`;
    results.push(await runStrategy(api, target, strategy, settings, `${runId}-${index}`, label, progress));
  }
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...settings, strategies },
    method: methodText(settings, target.replicaUrls.length),
    target: { nginxUrl: target.nginxUrl, replicas: target.replicaUrls.length },
    results,
  };
}

async function runStrategy(
  api: ApiClient,
  target: BenchTarget,
  strategy: string,
  settings: BenchSettings,
  userPrefix: string,
  label: string,
  progress: ProgressLine,
): Promise<StrategyResult> {
  const segments = segmentsFor(strategy, settings.segments);
  const query = grabQuery(strategy, settings.workMs);
  const round = async (phase: string, amount: number) => {
    // A fresh coupon per round: the measured one starts from full stock with no grant and no lock key.
    const coupon = await api.createCoupon(`bench ${strategy} ${phase} ${userPrefix}`, settings.stock, segments);
    const outcome = await runRound({
      url: `${target.nginxUrl}/coupons/${coupon.id}/grab?${new URLSearchParams(query).toString()}`,
      amount,
      connections: settings.connections,
      userPrefix: `${userPrefix}-${phase}`,
      onProgress: (answered, c) =>
        progress.update(
          `${label} ${phase} ${answered}/${amount}  200:${c.granted} 409:${c.soldOut + c.duplicate} 429:${c.lockTimeout} 5xx:${c.serverError}`,
        ),
    });
    return { coupon, outcome };
  };
  if (settings.warmupRequests > 0) await round('warm-up', settings.warmupRequests);
  const { coupon, outcome: measured } = await round('measured', settings.requests);
  const [audit, grants, events] = await Promise.all([
    api.audit(coupon.id),
    api.grants(coupon.id),
    fetchLockEvents(target, coupon.id, measured.startedAt),
  ]);
  const result = assembleResult(
    strategy,
    String(coupon.id),
    query,
    segments,
    settings.requests,
    measured,
    audit,
    grants,
    lockEventFigures(events),
  );
  progress.done(
    `${label}: ${result.verdict.label}, ${result.grabsPerSec.toFixed(0)} grabs/s, ${result.statuses.granted} granted, p99 ${ms(result.latency.p99)} ms`,
  );
  return result;
}

/** Pure: everything the report shows about one strategy, from what was measured. */
export function assembleResult(
  strategy: string,
  couponId: string,
  query: Record<string, string>,
  segments: number,
  requests: number,
  measured: RoundOutcome,
  audit: StrategyResult['audit'],
  grants: readonly GrantRow[],
  lock: LockEventFigures = { held: [] },
): StrategyResult {
  const latency = summariseLatency(measured.latenciesMs);
  const statuses: StatusCounts = measured.statuses;
  const fairness: Fairness = {
    maxLatencyMs: latency.max,
    spreadMs: latency.p99 - latency.p50,
    latencyJain: jainIndex(measured.latenciesMs),
    ...(lock.maxWaitMs === undefined ? {} : { maxLockWaitMs: lock.maxWaitMs }),
  };
  const intervals = grants.map((g) => ({ start: isoToMs(g.enteredAt), end: isoToMs(g.leftAt) }));
  return {
    strategy,
    couponId,
    query,
    segments,
    requests,
    durationMs: measured.durationMs,
    requestsPerSec: measured.durationMs > 0 ? (measured.answered * 1000) / measured.durationMs : 0,
    grabsPerSec: measured.lastGrantAfterMs > 0 ? (statuses.granted * 1000) / measured.lastGrantAfterMs : 0,
    latency,
    statuses,
    audit,
    reconciliation: reconcile(statuses.granted, grants.length, statuses.errors + statuses.timeouts),
    utilisation: {
      ...utilisation(intervals),
      ...(lock.held.length > 0 ? { lockHeldShare: heldShare(lock.held, intervals) } : {}),
    },
    fairness,
    verdict: verdict(audit, scenarioFor(strategy).promisesExclusion),
  };
}
