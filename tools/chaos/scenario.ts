import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '@app/contract';
import { control, type StackInfo } from '../stack/stack';
import { FAULTS, healAll, victim, type FaultName } from './faults';
import { awaitDrain } from '../orders/stream-drain';
import { recovery, waitAllHealthy, watchHealth } from './health-watch';
import { checkInvariants, doubleHoldersExpected, MIN_AFTER_RECOVERY } from './invariants';
import { startLoad, type RequestRecord } from './load-driver';
import { observeStranded, strandsReservations } from './stranded-reservations';
import { overlappingSections } from './overlapping-sections';
import { ACCEPTS_ORDERS, lostOrders, orderLossWindowMs, type OrderObservation } from './order-invariants';
import { judge, label } from './outcome';
import { resolveByRetry } from './resolve-by-retry';
import type { ScenarioOptions, ScenarioResult } from './scenario-types';
import { tally } from './tally';

export type { ChaosReport, ScenarioOptions, ScenarioResult } from './scenario-types';

/** After health is back, nginx may still hand a request to a connection opened before: half a second's grace. */
const SLACK_MS = 500;

const restarts = async (info: StackInfo) =>
  (await control<{ replicas: Array<{ restarts: number }> }>(info, '/state')).replicas.reduce(
    (n, r) => n + r.restarts,
    0,
  );

/**
 * One fault under load with one strategy, then every invariant checked against the database.
 * `waitReplicas`: the replicas' LOCK_WAIT_REPLICAS (0: none).
 */
export async function runScenario(
  info: StackInfo,
  faultName: FaultName,
  strategy: string,
  options: ScenarioOptions,
  waitReplicas: number,
): Promise<ScenarioResult> {
  const fault = FAULTS[faultName];
  const client = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken, timeoutMs: options.timeoutMs });
  const coupon = await client.createCoupon({ name: `chaos-${faultName}-${strategy}`, stock: options.stock });
  const restartsBefore = await restarts(info);
  const grab = { strategy, ...options.query };
  let injectedAtMs = 0;
  let faultOver = false;
  // Past the minimum, keep sending until enough grabs follow the recovery seen so far.
  const more = (sentAtMs: readonly number[]) => {
    const rec = faultOver ? recovery(watch.samples(), injectedAtMs) : undefined;
    if (rec?.recoveryMs === undefined) return true;
    const from = injectedAtMs + rec.recoveryMs + SLACK_MS;
    return sentAtMs.filter((t) => t >= from).length < MIN_AFTER_RECOVERY + 10;
  };
  const load = startLoad({
    client,
    couponId: coupon.id,
    grab,
    requests: options.requests,
    more,
    concurrency: options.concurrency,
    ratePerSec: options.ratePerSec,
    userPrefix: `chaos-${coupon.id}`,
  });
  const watch = watchHealth(info.replicas, load.elapsedMs);
  let killedAtMs = 0;
  let healedAtMs = 0;
  let records: RequestRecord[];
  try {
    await sleep(options.faultAtMs);
    injectedAtMs = load.elapsedMs();
    await fault.inject(info, coupon.id);
    killedAtMs = load.elapsedMs();
    if (!fault.killsReplica) await sleep(options.downMs);
    await fault.heal(info);
    healedAtMs = fault.killsReplica ? injectedAtMs : load.elapsedMs();
    faultOver = true;
    records = await load.done;
  } catch (error) {
    // A run that failed half-way must not leave the stack without its dependencies.
    await healAll(info).catch(() => undefined);
    await Promise.allSettled([load.done, watch.stop()]);
    throw error;
  }
  await waitAllHealthy(watch, options.recoveryTimeoutMs);
  const samples = await watch.stop();

  // A 502 is excused only for a request in flight at the kill that nginx says the killed replica failed.
  const victimAddress = fault.killsReplica ? new URL(info.replicas.find((r) => r.id === victim(info))!.url).host : '';
  const inFlightThen = (r: RequestRecord) =>
    fault.killsReplica && r.sentAtMs <= killedAtMs && r.endedAtMs >= injectedAtMs;
  const verdicts = records.map((r) => judge(r.outcome, (upstream) => inFlightThen(r) && upstream === victimAddress));
  const resolved = await resolveByRetry(client, coupon.id, grab, records, verdicts);
  // Accepted orders become grants later: judged once the stream drained (the retries' orders too).
  const stream = ACCEPTS_ORDERS.has(strategy) ? await awaitDrain(info, coupon.id) : undefined;
  const audit = await client.audit(coupon.id);
  const grantRows = await client.grants(coupon.id);
  const grantedInDb = grantRows.map((g) => g.userId);
  const unexpectedRestarts = (await restarts(info)) - restartsBefore - (fault.killsReplica ? 1 : 0);
  const seen = tally(records, verdicts, new Set(grantedInDb));
  const rec = recovery(samples, injectedAtMs);
  const servedFromMs = injectedAtMs + (rec.recoveryMs ?? Infinity) + SLACK_MS;
  const afterRecovery = verdicts.filter((_, i) => records[i].sentAtMs >= servedFromMs);
  const failsOver = Boolean(info.redisSentinelUrls?.length || info.redisClusterUrls?.length);
  const expected = doubleHoldersExpected(faultName, { redisFailsOver: failsOver, waitReplicas }, strategy);
  const lossWindowMs = orderLossWindowMs(faultName, info.redisAppendFsync, strategy);
  const orders: OrderObservation | undefined = stream && {
    accepted: seen.accepted,
    stream,
    ...(lossWindowMs !== undefined && { redisLostMemory: { atMs: killedAtMs, windowMs: lossWindowMs } }),
    ...(faultName === 'postgres-restart' && { databaseDown: { fromMs: injectedAtMs, toMs: healedAtMs } }),
  };
  const checks = checkInvariants({
    fault: faultName,
    strategy,
    ...(strandsReservations(faultName, strategy) && {
      strandedReservations: await observeStranded(info, coupon.id, grantedInDb),
    }),
    doubleHoldersExpected: expected,
    overlappingSections: overlappingSections(grantRows),
    audit,
    acknowledged: seen.acknowledged,
    orders,
    grantedInDb,
    resolvedByRetry: resolved.storedUsers,
    verdicts,
    soldOutAnswers: seen.statuses['409 STOCK.SOLD_OUT'] ?? 0,
    unclearLabels: records.filter((_, i) => verdicts[i] === 'unclear').map((r) => label(r.outcome)),
    maxLatencyMs: seen.maxLatencyMs,
    timeoutMs: options.timeoutMs,
    recovery: rec,
    afterRecovery,
    dependencyFault: !fault.killsReplica,
    unexpectedRestarts,
  });
  const { storedUsers: _users, ...resolution } = resolved;
  return {
    fault: faultName,
    strategy,
    couponId: coupon.id,
    requests: records.length,
    acknowledged: seen.acknowledged.length,
    ...(orders && {
      accepted: orders.accepted.length,
      ...(orders.redisLostMemory && {
        lostByDesign: lostOrders(orders, grantedInDb).byDesign.length,
      }),
    }),
    audit,
    statuses: seen.statuses,
    verdicts: seen.verdicts,
    recoveryMs: rec.recoveryMs,
    answeredAfterRecovery: afterRecovery.length,
    maxLatencyMs: seen.maxLatencyMs,
    inFlightAtKill: records.filter(inFlightThen).length,
    diedWithReplica: seen.diedWithReplica,
    resolution,
    injectedAtMs,
    healedAtMs,
    timeline: seen.timeline,
    doubleHoldersExpected: expected,
    checks,
    ok: checks.every((c) => c.ok),
  };
}
