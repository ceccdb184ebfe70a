import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient, type CallAnswer, type Hold } from '@app/contract';
import type { StackInfo } from '../stack/stack';
import { holdOutcomes, untilNoneHeld } from '../holds/hold-races';
import { FAULTS, healAll, victim, type FaultName } from './faults';
import { recovery, waitAllHealthy, watchHealth } from './health-watch';
import { checkHoldInvariants, type HoldRecord } from './holds-invariants';
import { label, outcomeOf } from './outcome';
import { hasGrant } from './resolve-by-retry';
import type { HoldsScenarioResult } from './scenario-types';

export type { HoldsScenarioResult } from './scenario-types';

/** The faults the holds run meets: a replica killed mid-confirm, PostgreSQL restarted while holds expire. */
export const HOLDS_FAULTS: readonly FaultName[] = ['replica-kill', 'postgres-restart'];

export interface HoldsScenarioOptions {
  /** Holds opened, one unit and one buyer each. */
  readonly holds: number;
  /** Each hold's length: long enough to open them all before the first deadline on a busy machine. */
  readonly holdMs: number;
  /** replica-kill: the kill comes this long after the first confirm was sent. */
  readonly faultAtMs: number;
  /** postgres-restart: how long PostgreSQL stays down. */
  readonly downMs: number;
  readonly timeoutMs: number;
  readonly recoveryTimeoutMs: number;
}

export const DEFAULT_HOLDS_SCENARIO: HoldsScenarioOptions = Object.freeze({
  holds: 60,
  holdMs: 3000,
  faultAtMs: 500,
  downMs: 5000,
  timeoutMs: 10_000,
  recoveryTimeoutMs: 30_000,
});

/** Opens `count` holds through nginx, all at once. */
async function openHolds(api: ApiClient, couponId: number, count: number, holdMs: number): Promise<Hold[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const answer = await api.hold(couponId, `holds-${couponId}-${i}`, holdMs);
      if (answer.status !== 201) throw new Error(`hold ${i} answered ${answer.status} ${answer.code}`);
      return answer.body as unknown as Hold;
    }),
  );
}

interface Plan {
  /** Confirms sent, by index into the holds; holds without one expire. */
  readonly confirms: Map<number, Promise<CallAnswer>>;
  /** What the fault did to the holds, counted once the confirms are answered. */
  readonly faultMet: (answers: ReadonlyMap<number, CallAnswer>) => { count: number; what: string };
  /** When the fault began, ms on the run's clock. */
  readonly injectedAtMs: number;
}

/**
 * A third of the confirms go to the replica that is killed with `raceExpiry` (they stall inside the
 * confirm until the hold expires, so the kill finds them there); the rest go through nginx, spread
 * over twice `faultAtMs`, so some are in flight on that replica at the kill, some answer before it
 * and some after. A third of the holds are never confirmed.
 */
async function killMidConfirm(
  info: StackInfo,
  api: ApiClient,
  holds: readonly Hold[],
  o: HoldsScenarioOptions,
  elapsedMs: () => number,
): Promise<Plan> {
  const killed = api.at(info.replicas.find((r) => r.id === victim(info))!.url);
  const confirms = new Map<number, Promise<CallAnswer>>();
  const flowing = holds.map((_, i) => i).filter((i) => i % 3 === 1);
  holds.forEach((h, i) => {
    if (i % 3 === 0) confirms.set(i, killed.confirmHold(h.couponId, h.holdId, { raceExpiry: true }));
  });
  const sent = flowing.map(async (i, k) => {
    await sleep((2 * o.faultAtMs * k) / flowing.length);
    confirms.set(i, api.confirmHold(holds[i].couponId, holds[i].holdId));
  });
  await sleep(o.faultAtMs);
  const injectedAtMs = elapsedMs();
  await FAULTS['replica-kill'].inject(info);
  await Promise.all(sent);
  return {
    injectedAtMs,
    confirms,
    faultMet: (answers) => ({
      count: [...answers.values()].filter((a) => a.status === 0 || a.status === 502).length,
      what: 'confirms left without an answer by the kill',
    }),
  };
}

/**
 * A third of the holds confirmed before PostgreSQL stops (half a second before the first deadline),
 * a third confirmed while it is down, a third left to expire; it stays down past every deadline.
 */
async function restartWhileExpiring(
  info: StackInfo,
  api: ApiClient,
  holds: readonly Hold[],
  o: HoldsScenarioOptions,
  elapsedMs: () => number,
): Promise<Plan> {
  const confirms = new Map<number, Promise<CallAnswer>>();
  holds.forEach((h, i) => {
    if (i % 3 === 0) confirms.set(i, api.confirmHold(h.couponId, h.holdId));
  });
  await Promise.all(confirms.values());
  const deadlines = holds.map((h) => Date.parse(h.expiresAt));
  await sleep(Math.max(0, Math.min(...deadlines) - 500 - Date.now()));
  // PostgreSQL refuses work from the moment its fast shutdown begins.
  const stoppedAt = Date.now();
  const injectedAtMs = elapsedMs();
  await FAULTS['postgres-restart'].inject(info);
  holds.forEach((h, i) => {
    if (i % 3 === 1) confirms.set(i, api.confirmHold(h.couponId, h.holdId));
  });
  await sleep(Math.max(o.downMs, Math.max(...deadlines) + 200 - Date.now()));
  const startedAt = Date.now();
  await FAULTS['postgres-restart'].heal(info);
  return {
    injectedAtMs,
    confirms,
    faultMet: () => ({
      count: deadlines.filter((d) => d > stoppedAt && d < startedAt).length,
      what: 'holds came due while PostgreSQL was down',
    }),
  };
}

/**
 * Holds under one fault (replica-kill or postgres-restart), then, once no hold is held, every
 * invariant judged from the database: each unit accounted for once, each hold with one outcome,
 * every acknowledged confirm a grant, and every buyer's grant lookup agreeing with the database.
 */
export async function runHoldsScenario(
  info: StackInfo,
  faultName: FaultName,
  options: HoldsScenarioOptions = DEFAULT_HOLDS_SCENARIO,
): Promise<HoldsScenarioResult> {
  if (!HOLDS_FAULTS.includes(faultName)) throw new Error(`the holds run meets ${HOLDS_FAULTS.join(', ')}`);
  const api = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken, timeoutMs: options.timeoutMs });
  const coupon = await api.createCoupon({ name: `chaos-holds-${faultName}`, stock: options.holds });
  const holds = await openHolds(api, coupon.id, options.holds, options.holdMs);
  const startedAt = performance.now();
  const elapsedMs = () => performance.now() - startedAt;
  const watch = watchHealth(info.replicas, elapsedMs);
  let plan: Plan;
  const answers = new Map<number, CallAnswer>();
  try {
    plan =
      faultName === 'replica-kill'
        ? await killMidConfirm(info, api, holds, options, elapsedMs)
        : await restartWhileExpiring(info, api, holds, options, elapsedMs);
    await Promise.all([...plan.confirms].map(async ([i, answer]) => answers.set(i, await answer)));
  } catch (error) {
    await healAll(info).catch(() => undefined);
    await watch.stop();
    throw error;
  }
  await waitAllHealthy(watch, options.recoveryTimeoutMs);
  const samples = await watch.stop();
  const audit = await untilNoneHeld(api, coupon.id, options.holdMs + options.recoveryTimeoutMs);
  const outcomes = await holdOutcomes(info.databaseUrl, coupon.id);
  const lookups = await Promise.all(holds.map((h) => hasGrant(api, coupon.id, h.userId)));
  const records: HoldRecord[] = holds.map((h, i) => {
    const answer = answers.get(i);
    return { holdId: h.holdId, userId: h.userId, confirm: answer && { status: answer.status, code: answer.code } };
  });
  const checks = checkHoldInvariants({
    audit,
    outcomes,
    holds: records,
    lookups,
    killsReplica: FAULTS[faultName].killsReplica,
    faultMet: plan.faultMet(answers),
  });
  const statuses: Record<string, number> = {};
  for (const answer of answers.values()) {
    const name = label(outcomeOf(answer));
    statuses[name] = (statuses[name] ?? 0) + 1;
  }
  const sent = [...answers.values()];
  return {
    fault: faultName,
    couponId: coupon.id,
    holds: holds.length,
    confirms: sent.length,
    acknowledged: sent.filter((a) => a.status === 200).length,
    unanswered: sent.filter((a) => a.status === 0 || a.status === 502).length,
    audit,
    twoOutcomes: outcomes.twoOutcomes,
    returnedTwice: outcomes.returnedTwice,
    statuses,
    recoveryMs: recovery(samples, plan.injectedAtMs).recoveryMs,
    checks,
    ok: checks.every((c) => c.ok),
  };
}
