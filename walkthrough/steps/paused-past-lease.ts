import type { Coupon, GrabAnswer } from '@app/contract';
import { lockKey, type KeyState } from '../lock-keys';
import { keyBar, users } from '../scenario';
import type { StepContext } from '../step';
import { stalledHolder } from './stalled-holder';
import type { TimelineBar, TimelineTick } from '../timeline/timeline-model';

export interface PastLeaseRun {
  readonly a: GrabAnswer;
  readonly b: GrabAnswer;
  readonly c: GrabAnswer;
  /** The lock key just after A answered (A has released by then). */
  readonly keyAfterARelease: KeyState;
  readonly ticks: TimelineTick[];
  /** A's key from when it was seen until it expired. */
  readonly bars: TimelineBar[];
  /** Bar labels: A, B, C by user id. */
  readonly labels: Record<string, string>;
}

/**
 * The sequence behind every "holder outlives its lease" step, ordered by what Redis shows rather
 * than by luck: A takes the lock and stalls for three leases; only once A's key has really expired
 * is B sent; B holds five leases' worth of pause, so it is surely still inside when A comes back;
 * C is sent only after A has answered (and released), while B still works.
 */
export async function pausedPastLease(
  ctx: StepContext,
  coupon: Coupon,
  strategy: string,
  leaseMs: number,
  options: { stall?: 'pauseMs' | 'freezeMs'; cWaitMs?: number } = {},
): Promise<PastLeaseRun> {
  const key = lockKey(coupon.id);
  const [ra, rb, rc] = ctx.api.replicas.map((r) => r.id);
  const [ua, ub, uc] = users(`${strategy}-lease`, 3);
  const stall = options.stall ?? 'pauseMs';
  const stallFor = stall === 'freezeMs' ? { freezeMs: 3 * leaseMs } : { pauseMs: 3 * leaseMs };
  const {
    answer: aDone,
    held: heldByA,
    heldAt: seenAt,
  } = await stalledHolder(ctx, coupon.id, { user: ua, via: ra, strategy, leaseMs, ...stallFor });
  const expiredAt = await ctx.keys.waitUntilGone(key, 10 * leaseMs);
  ctx.say(`A's key expired while A still works; B on ${rb}`);
  const ticks: TimelineTick[] = [
    { lane: 'redis', at: expiredAt, type: 'expired', detail: `A's lease ran out (${heldByA.holder})` },
  ];
  const bDone = ctx.api.grab(coupon.id, ub, {
    strategy,
    via: rb,
    leaseMs: 20 * leaseMs,
    waitMs: leaseMs,
    pauseMs: 5 * leaseMs,
  });
  await ctx.keys.waitUntilHeld(key, 10_000);
  const a = await aDone;
  const keyAfterARelease = await ctx.keys.peek(key);
  ctx.say(
    `A answered ${a.status}; the key is now ${keyAfterARelease.exists ? 'still held' : 'gone'}; C on ${rc} while B still works`,
  );
  const c = await ctx.api.grab(coupon.id, uc, {
    strategy,
    via: rc,
    leaseMs: 20 * leaseMs,
    waitMs: options.cWaitMs ?? 0,
  });
  const b = await bDone;
  const bars = [keyBar("A's key", seenAt, expiredAt)];
  return { a, b, c, keyAfterARelease, ticks, bars, labels: { [ua]: 'A', [ub]: 'B', [uc]: 'C' } };
}
