import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient, type Audit } from '@app/contract';
import { control, type StackInfo } from '../stack/stack';
import { FAULTS, healAll, type FaultName } from './faults';
import { recovery, watchHealth, type HealthWatch } from './health-watch';
import { checkInvariants, type Check } from './invariants';
import { startLoad, type RequestRecord } from './load-driver';
import { judge } from './outcome';
import { tally, type Tally } from './tally';

export interface ScenarioOptions {
  readonly requests: number;
  readonly concurrency: number;
  readonly ratePerSec: number;
  readonly timeoutMs: number;
  /** The coupon's stock; below the requests, so the coupon sells out after the fault. */
  readonly stock: number;
  /** The fault is injected this long after the first request. */
  readonly faultAtMs: number;
  /** How long Redis or PostgreSQL stays down. */
  readonly downMs: number;
  /** Health must be all 200 again within this long after the heal. */
  readonly recoveryTimeoutMs: number;
  /** Grab query options besides the strategy (leaseMs, waitMs, workMs). */
  readonly query: Readonly<Record<string, number>>;
}

/** What `npm run chaos -- --json FILE` writes. */
export interface ChaosReport {
  readonly startedAt: string;
  readonly results: ScenarioResult[];
}

export interface ScenarioResult {
  readonly fault: FaultName;
  readonly strategy: string;
  readonly couponId: number;
  readonly requests: number;
  readonly acknowledged: number;
  readonly audit: Audit;
  readonly statuses: Tally['statuses'];
  readonly verdicts: Tally['verdicts'];
  readonly recoveryMs: number | undefined;
  readonly maxLatencyMs: number;
  /** Requests in flight when the replica was killed; of those that died with it, how many were granted anyway. */
  readonly inFlightAtKill: number;
  readonly diedWithReplica: { readonly count: number; readonly grantedInDb: number };
  /** When the fault was injected and healed, ms since the first request. */
  readonly injectedAtMs: number;
  readonly healedAtMs: number;
  /** Answers by the second they were sent in, for the JSON report. */
  readonly timeline: Tally['timeline'];
  readonly checks: readonly Check[];
  readonly ok: boolean;
}

const restarts = async (info: StackInfo) =>
  (await control<{ replicas: Array<{ restarts: number }> }>(info, '/state')).replicas.reduce(
    (n, r) => n + r.restarts,
    0,
  );

/** Until the watch's newest sample says every replica is healthy, or `timeoutMs` has passed. */
async function waitAllHealthy(watch: HealthWatch, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const last = watch.latest();
    if (last && Object.values(last.statuses).every((s) => s === 200)) return;
    await sleep(100);
  }
}

/** One fault under load with one strategy, then every invariant checked against the database. */
export async function runScenario(
  info: StackInfo,
  faultName: FaultName,
  strategy: string,
  options: ScenarioOptions,
): Promise<ScenarioResult> {
  const fault = FAULTS[faultName];
  const client = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken, timeoutMs: options.timeoutMs });
  const coupon = await client.createCoupon({ name: `chaos-${faultName}-${strategy}`, stock: options.stock });
  const restartsBefore = await restarts(info);

  const load = startLoad({
    client,
    couponId: coupon.id,
    grab: { strategy, ...options.query },
    requests: options.requests,
    concurrency: options.concurrency,
    ratePerSec: options.ratePerSec,
    userPrefix: `chaos-${coupon.id}`,
  });
  const watch = watchHealth(info.replicas, load.elapsedMs);
  let injectedAtMs = 0;
  let killedAtMs = 0;
  let healedAtMs = 0;
  let records: RequestRecord[];
  try {
    await sleep(options.faultAtMs);
    injectedAtMs = load.elapsedMs();
    await fault.inject(info);
    killedAtMs = load.elapsedMs();
    if (!fault.killsReplica) await sleep(options.downMs);
    await fault.heal(info);
    healedAtMs = fault.killsReplica ? injectedAtMs : load.elapsedMs();
    records = await load.done;
  } catch (error) {
    // A run that failed half-way must not leave the stack without its dependencies.
    await healAll(info).catch(() => undefined);
    await Promise.allSettled([load.done, watch.stop()]);
    throw error;
  }
  await waitAllHealthy(watch, options.recoveryTimeoutMs);
  const samples = await watch.stop();

  const audit = await client.audit(coupon.id);
  const grants = await client.grants(coupon.id);
  const unexpectedRestarts = (await restarts(info)) - restartsBefore - (fault.killsReplica ? 1 : 0);

  // In flight at the kill: sent before the victim was gone, answered after the kill began.
  const inFlightThen = (r: RequestRecord) =>
    fault.killsReplica && r.sentAtMs <= killedAtMs && r.endedAtMs >= injectedAtMs;
  const verdictList = records.map((r) => judge(r.outcome, inFlightThen(r)));
  const grantedInDb = grants.map((g) => g.userId);
  const seen = tally(records, verdictList, new Set(grantedInDb));
  const inFlightAtKill = records.filter(inFlightThen).length;
  const rec = recovery(samples, injectedAtMs, healedAtMs);
  // Half a second of slack after health is back: nginx may still hand a request to a connection opened before.
  const servedFromMs = healedAtMs + (rec.recoveryMs ?? Infinity) + 500;
  const afterRecovery = verdictList.filter((_, i) => records[i].sentAtMs >= servedFromMs);
  const checks = checkInvariants({
    audit,
    acknowledged: seen.acknowledged,
    grantedInDb,
    verdicts: verdictList,
    maxLatencyMs: seen.maxLatencyMs,
    timeoutMs: options.timeoutMs,
    recovery: rec,
    afterRecovery,
    dependencyFault: !fault.killsReplica,
    unexpectedRestarts,
  });
  return {
    fault: faultName,
    strategy,
    couponId: coupon.id,
    requests: records.length,
    acknowledged: seen.acknowledged.length,
    audit,
    statuses: seen.statuses,
    verdicts: seen.verdicts,
    recoveryMs: rec.recoveryMs,
    maxLatencyMs: seen.maxLatencyMs,
    inFlightAtKill,
    diedWithReplica: seen.diedWithReplica,
    injectedAtMs,
    healedAtMs,
    timeline: seen.timeline,
    checks,
    ok: checks.every((c) => c.ok),
  };
}
