import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient, CallAnswer, Hold } from '@app/contract';
import type { StackInfo } from '../stack/stack';
import { FAULTS, victim, type FaultName } from './faults';

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

/** What a fault plan works on: the stack, the client through nginx, the holds opened, the run's clock. */
export interface PlanContext {
  readonly info: StackInfo;
  readonly api: ApiClient;
  readonly holds: readonly Hold[];
  readonly options: HoldsScenarioOptions;
  readonly elapsedMs: () => number;
}

export interface Plan {
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
export async function killMidConfirm({ info, api, holds, options: o, elapsedMs }: PlanContext): Promise<Plan> {
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
export async function restartWhileExpiring({ info, api, holds, options: o, elapsedMs }: PlanContext): Promise<Plan> {
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
