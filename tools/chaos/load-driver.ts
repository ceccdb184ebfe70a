import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient, GrabOptions } from '@app/contract';
import { outcomeOf, type Outcome } from './outcome';

export interface LoadPlan {
  /** Through nginx; its timeout is how long the client waits for one answer. */
  readonly client: ApiClient;
  readonly couponId: number;
  readonly grab: GrabOptions;
  /** At least this many requests, each by a distinct user. */
  readonly requests: number;
  /**
   * Asked once the minimum is sent: true sends one more, at the same rate (at most three times the
   * minimum in all). The run ends on what was observed, not after a guessed duration.
   */
  readonly more?: (sentAtMs: readonly number[]) => boolean;
  /** At most this many in flight at once. */
  readonly concurrency: number;
  /** Request i is not sent before start + i / ratePerSec, so the run spans the fault whatever answers fast. */
  readonly ratePerSec: number;
  /** Prefix of the user ids; ids are `<prefix>-<i>`. */
  readonly userPrefix: string;
}

export interface RequestRecord {
  readonly userId: string;
  /** ms since the start of the run. */
  readonly sentAtMs: number;
  readonly endedAtMs: number;
  readonly outcome: Outcome;
}

export interface LoadRun {
  /** Resolves with every request, in the order they were sent. */
  readonly done: Promise<RequestRecord[]>;
  /** ms since the start of the run (a plain function: it is handed around on its own). */
  readonly elapsedMs: () => number;
}

/** Starts the load at once; the run is bounded by `requests` (and `more`), each request by the client's timeout. */
export function startLoad(plan: LoadPlan): LoadRun {
  const startedAt = performance.now();
  const elapsedMs = () => performance.now() - startedAt;
  const records: RequestRecord[] = [];
  const sentAtMs: number[] = [];
  let next = 0;
  const another = (i: number) =>
    i < plan.requests || (i < plan.requests * 3 && plan.more !== undefined && plan.more(sentAtMs));

  const worker = async () => {
    for (let i = next++; another(i); i = next++) {
      const due = (i * 1000) / plan.ratePerSec;
      if (due > elapsedMs()) await sleep(due - elapsedMs());
      const userId = `${plan.userPrefix}-${i}`;
      const sentAt = elapsedMs();
      sentAtMs.push(sentAt);
      const outcome = outcomeOf(await plan.client.grab(plan.couponId, userId, plan.grab));
      records[i] = { userId, sentAtMs: sentAt, endedAtMs: elapsedMs(), outcome };
    }
  };
  // A worker that stopped lets `next` run one past the end; the records have no holes below it.
  const done = Promise.all(Array.from({ length: plan.concurrency }, worker)).then(() => records.filter(Boolean));
  return { done, elapsedMs };
}
