import { ApiClient, type CallAnswer, type Hold } from '@app/contract';
import type { StackInfo } from '../stack/stack';
import { holdOutcomes, untilNoneHeld } from '../holds/hold-races';
import { FAULTS, healAll, type FaultName } from './faults';
import {
  DEFAULT_HOLDS_SCENARIO,
  HOLDS_FAULTS,
  killMidConfirm,
  restartWhileExpiring,
  type HoldsScenarioOptions,
  type Plan,
} from './holds-fault-plans';
import { recovery, waitAllHealthy, watchHealth } from './health-watch';
import { checkHoldInvariants, type HoldRecord } from './holds-invariants';
import { label, outcomeOf } from './outcome';
import { hasGrant } from './resolve-by-retry';
import type { HoldsScenarioResult } from './scenario-types';

export type { HoldsScenarioResult } from './scenario-types';
export { DEFAULT_HOLDS_SCENARIO, HOLDS_FAULTS, type HoldsScenarioOptions } from './holds-fault-plans';

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
        ? await killMidConfirm({ info, api, holds, options, elapsedMs })
        : await restartWhileExpiring({ info, api, holds, options, elapsedMs });
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
