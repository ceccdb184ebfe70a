import { ApiClient, couponLockResource, type LockEvent } from '@app/contract';
import type { Interval } from './metrics/utilisation';
import type { BenchTarget } from './target';

/** What the replicas' lock events tell about one round. */
export interface LockEventFigures {
  /** Longest wait for the lock (acquire events). */
  readonly maxWaitMs?: number;
  /** When the lock was held (release events carry how long), across replicas. */
  readonly held: Interval[];
}

/** Pure: figures from the events of every replica. */
export function lockEventFigures(events: readonly Pick<LockEvent, 'type' | 'at' | 'durationMs'>[]): LockEventFigures {
  const waits = events
    .filter((e) => e.type === 'acquire' && typeof e.durationMs === 'number')
    .map((e) => e.durationMs as number);
  const held = events
    .filter((e) => e.type === 'release' && typeof e.durationMs === 'number')
    .map((e) => ({ start: e.at - (e.durationMs as number), end: e.at }));
  return { ...(waits.length > 0 ? { maxWaitMs: Math.max(...waits) } : {}), held };
}

/**
 * Every replica's lock events on this round's coupon (its own, so every event is this strategy's,
 * whatever lock it uses underneath) since `sinceMs`. A replica that does not answer adds nothing.
 */
export async function fetchLockEvents(target: BenchTarget, couponId: number, sinceMs: number): Promise<LockEvent[]> {
  const perReplica = await Promise.all(
    target.replicaUrls.map((baseUrl) =>
      new ApiClient({ baseUrl }).lockEvents(couponLockResource(couponId), sinceMs).catch(() => [] as LockEvent[]),
    ),
  );
  return perReplica.flat();
}
