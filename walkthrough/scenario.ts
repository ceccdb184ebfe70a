import type { Coupon, GrabAnswer, Grant, LockEvent } from '@app/contract';
import type { Check, Figure, StepContext } from './step';
import type { TimelineBar, TimelineInput, TimelineTick } from './timeline/timeline-model';
import { WaitTimeoutError } from './walkthrough.errors';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function check(what: string, observed: Figure, pass: boolean, expected: string): Check {
  return { what, expected, observed, pass };
}

/** `count` distinct user ids for one step's run (a user gets one coupon at most). */
export function users(prefix: string, count: number): string[] {
  const run = Date.now().toString(36);
  return Array.from({ length: count }, (_, i) => `${prefix}-${run}-${i + 1}`);
}

/**
 * `count` buyers grab one coupon all at once with a generous lease and wait, timed: the answers, the
 * time taken, and grants per second as the database counts them once `audit` is read.
 */
export async function timedGrabs(
  ctx: StepContext,
  couponId: number,
  buyers: readonly string[],
  options: { readonly strategy: string; readonly workMs: number },
): Promise<{ results: GrabAnswer[]; elapsedMs: number; perSecond: (grants: number) => number }> {
  const started = Date.now();
  const grab = (u: string) => ctx.api.grab(couponId, u, { ...options, leaseMs: 10_000, waitMs: 30_000 });
  const results = await Promise.all(buyers.map(grab));
  const elapsedMs = Date.now() - started;
  return { results, elapsedMs, perSecond: (grants) => Math.round((grants / elapsedMs) * 1000) };
}

/** How many answers had each status, e.g. { "200": 5, "409 STOCK.SOLD_OUT": 15 }. */
export function statusCounts(results: readonly GrabAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of results) {
    const key = r.status === 0 ? `dropped (${r.code})` : r.code ? `${r.status} ${r.code}` : String(r.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export const countStatus = (results: readonly GrabAnswer[], status: number) =>
  results.filter((r) => r.status === status).length;

/**
 * A fresh coupon for one step, reset when the step ends (its grants and lock keys cleared), so
 * every step starts clean and leaves nothing behind whatever order steps run in.
 */
export async function withCoupon<T>(
  ctx: StepContext,
  name: string,
  stock: number,
  body: (coupon: Coupon) => Promise<T>,
  segments?: number,
): Promise<T> {
  // A replica restarted by an earlier step (or anything else) must be back before this one starts.
  await Promise.all(ctx.api.replicas.map((r) => waitForReplica(ctx, r.id)));
  const coupon = await ctx.api.createCoupon({ name: `walkthrough ${name}`, stock, ...(segments ? { segments } : {}) });
  try {
    return await body(coupon);
  } finally {
    await ctx.api
      .resetCoupon(coupon.id, { stock, ...(segments ? { segments } : {}) })
      .catch((error) => ctx.say(`cleanup: reset failed: ${(error as Error).message}`));
  }
}

/** Waits until the replica answers its health check again (the stack restarts a dead one). */
export async function waitForReplica(ctx: StepContext, replicaId: string, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  while (!(await ctx.api.healthy(replicaId))) {
    if (Date.now() - started > timeoutMs)
      throw new WaitTimeoutError(`${replicaId} did not come back within ${timeoutMs} ms`);
    await sleep(100);
  }
  return Date.now() - started;
}

export const grantBar = (grant: Grant, label?: string): TimelineBar => ({
  lane: grant.replica,
  start: Date.parse(grant.enteredAt),
  end: Date.parse(grant.leftAt),
  row: `segment ${grant.segment}`,
  label: label ?? grant.userId.replace(/^.*-(\d+)$/, 'user $1'),
});

export const eventTick = (event: LockEvent): TimelineTick => ({
  lane: event.replica,
  at: event.at,
  type: event.type,
  detail: [event.owner, event.detail].filter(Boolean).join(' '),
});

export interface TimelineExtras {
  /** What the walkthrough did or saw (a crash, an expiry, a manual delete). */
  readonly ticks?: readonly TimelineTick[];
  /** The life of lock keys in Redis, drawn on the redis lane. */
  readonly bars?: readonly TimelineBar[];
  /** Bar labels by user id (e.g. "A", "B"). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The timeline of one step: a lane per replica, the grants as bars, the lock events as ticks. */
export function timeline(
  ctx: StepContext,
  title: string,
  grants: readonly Grant[],
  events: readonly LockEvent[],
  extras: TimelineExtras = {},
): TimelineInput {
  const lanes = ctx.api.replicas.map((r) => r.id);
  if ([...(extras.ticks ?? []), ...(extras.bars ?? [])].some((t) => t.lane === 'redis')) lanes.push('redis');
  return {
    title,
    lanes,
    bars: [...grants.map((g) => grantBar(g, extras.labels?.[g.userId])), ...(extras.bars ?? [])],
    ticks: [...events.map(eventTick), ...(extras.ticks ?? [])],
  };
}

/** A lock key's life in Redis as a bar on the redis lane. */
export const keyBar = (label: string, start: number, end: number): TimelineBar => ({
  lane: 'redis',
  start,
  end,
  row: 'key',
  label,
  kind: 'key',
});

export const count = (events: readonly LockEvent[], type: string) => events.filter((e) => e.type === type).length;

/** Section of a grant in epoch ms. */
export const section = (grant: Grant) => ({ start: Date.parse(grant.enteredAt), end: Date.parse(grant.leftAt) });
