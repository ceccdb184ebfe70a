import type { Offer, StepNeed } from '@app/contract';
import { ChaosDisabledError } from '@app/apps-common';
import { UnavailableError } from '../common/lab.errors';

/** What this deployment of the lab can do. */
export interface Deployment {
  /** The replicas honour chaos options (CHAOS_ENABLED=true). */
  readonly chaos: boolean;
  /** The local stack's control endpoint is there (not under docker-compose). */
  readonly control: boolean;
  /** The lab may start servers of its own (spare ports given). */
  readonly servers: boolean;
}

const REASONS: Record<Exclude<StepNeed, 'fault'>, string> = {
  chaos: 'chaos is off: the replicas run with CHAOS_ENABLED=false, so stalls, crashes and lease options are refused',
  control:
    "needs the local stack's control endpoint (npm run stack); under docker-compose there is none, so nothing is attempted",
  servers: 'starts Redis servers of its own, which only the local stack (npm run stack) allows',
};

/** Whether something that uses `uses` can run here, and if not, the first reason why. */
export function offer(uses: readonly StepNeed[], deployment: Deployment): Offer {
  for (const need of ['chaos', 'control', 'servers'] as const) {
    if (uses.includes(need) && !deployment[need]) return { available: false, reason: REASONS[need] };
  }
  return { available: true };
}

/** Throws the refusal for the first thing missing: 403 CHAOS.DISABLED, else 409 LAB.UNAVAILABLE. */
export function assertOffered(what: string, uses: readonly StepNeed[], deployment: Deployment): void {
  if (uses.includes('chaos') && !deployment.chaos)
    throw new ChaosDisabledError(`${what} needs chaos options, and the replicas run with CHAOS_ENABLED=false`);
  const { available, reason } = offer(uses, deployment);
  if (!available) throw new UnavailableError(`${what}: ${reason}`);
}
