import type { GrabAnswer } from '@app/contract';
import { lockKey, type KeyState } from '../lock-keys';
import type { StepContext } from '../step';

/** How holder A outstays its lease: a pause its own timers run through, or a freeze that stops them too. */
export type Stall = { readonly pauseMs: number } | { readonly freezeMs: number };

export type StalledGrab = Stall & {
  readonly user: string;
  readonly via: string;
  readonly strategy: string;
  readonly leaseMs: number;
};

export interface StalledHolder {
  /** A's answer, once its stall is over. */
  readonly answer: Promise<GrabAnswer>;
  /** A's lock key as Redis first showed it held, and when. */
  readonly held: KeyState;
  readonly heldAt: number;
}

/**
 * The opening of a step about a holder that outlives its lease: A grabs with a stall, and the step
 * goes on only once Redis shows A's key, rather than after a guessed delay.
 */
export async function stalledHolder(
  ctx: StepContext,
  couponId: number,
  { user, via, ...grab }: StalledGrab,
): Promise<StalledHolder> {
  const stall = 'freezeMs' in grab ? `freezeMs=${grab.freezeMs}` : `pauseMs=${grab.pauseMs}`;
  ctx.say(`A on ${via}: lease ${grab.leaseMs} ms, ${stall}`);
  const answer = ctx.api.grab(couponId, user, { ...grab, via, waitMs: grab.leaseMs });
  const held = await ctx.keys.waitUntilHeld(lockKey(couponId), 10_000);
  return { answer, held, heldAt: Date.now() };
}
