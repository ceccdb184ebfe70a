import type { RequestRecord } from './load-driver';
import { label, type Verdict } from './outcome';

/** A buyer, when its grab was sent and when it was answered, ms since the start of the run. */
export interface SentBy {
  readonly userId: string;
  readonly sentAtMs: number;
  readonly answeredAtMs: number;
}

export interface Tally {
  /** Answers by label, e.g. { '200': 240, '503 DEPENDENCY.UNAVAILABLE': 80 }. */
  readonly statuses: Record<string, number>;
  readonly verdicts: Record<Verdict, number>;
  /** userIds answered 200. */
  readonly acknowledged: string[];
  /** Buyers answered 202 (an order accepted), with when they asked. */
  readonly accepted: SentBy[];
  /** Requests that died with the killed replica, and how many of them the database granted anyway. */
  readonly diedWithReplica: { readonly count: number; readonly grantedInDb: number };
  readonly maxLatencyMs: number;
  /** Answers by the second they were sent in. */
  readonly timeline: Array<Record<string, number>>;
}

/** Counts what the client saw, request by request (`verdicts[i]` judges `records[i]`). */
export function tally(
  records: readonly RequestRecord[],
  verdicts: readonly Verdict[],
  grantedInDb: ReadonlySet<string>,
): Tally {
  const statuses: Record<string, number> = {};
  const counts: Record<Verdict, number> = {
    granted: 0,
    accepted: 0,
    refused: 0,
    clear: 0,
    'died-with-replica': 0,
    unclear: 0,
  };
  const timeline: Array<Record<string, number>> = [];
  records.forEach((r, i) => {
    const name = label(r.outcome);
    statuses[name] = (statuses[name] ?? 0) + 1;
    counts[verdicts[i]] += 1;
    const bucket = (timeline[Math.floor(r.sentAtMs / 1000)] ??= {});
    bucket[name] = (bucket[name] ?? 0) + 1;
  });
  const died = records.filter((_, i) => verdicts[i] === 'died-with-replica');
  return {
    statuses,
    verdicts: counts,
    acknowledged: records.filter((_, i) => verdicts[i] === 'granted').map((r) => r.userId),
    accepted: records
      .filter((_, i) => verdicts[i] === 'accepted')
      .map((r) => ({ userId: r.userId, sentAtMs: r.sentAtMs, answeredAtMs: r.endedAtMs })),
    diedWithReplica: { count: died.length, grantedInDb: died.filter((r) => grantedInDb.has(r.userId)).length },
    maxLatencyMs: Math.max(0, ...records.map((r) => r.endedAtMs - r.sentAtMs)),
    timeline: Array.from(timeline, (b) => b ?? {}),
  };
}
