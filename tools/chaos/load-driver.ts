import { setTimeout as sleep } from 'node:timers/promises';
import type { Outcome } from './outcome';

export interface LoadPlan {
  /** The grab URL, query included. */
  readonly url: string;
  /** A fixed number of requests, each by a distinct user. */
  readonly requests: number;
  /** At most this many in flight at once. */
  readonly concurrency: number;
  /** Request i is not sent before start + i / ratePerSec, so the run spans the fault whatever answers fast. */
  readonly ratePerSec: number;
  /** The client gives up on a request after this long. */
  readonly timeoutMs: number;
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

async function grabOnce(url: string, userId: string, timeoutMs: number): Promise<Outcome> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { code?: string }).code;
    } catch {
      /* nginx's HTML error pages */
    }
    return { kind: 'answer', status: res.status, code };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return { kind: 'timeout' };
    return { kind: 'broken', reason: e.cause?.code ?? e.cause?.message ?? e.message };
  }
}

/** Starts the load at once; the run is bounded by `requests` and each request by `timeoutMs`. */
export function startLoad(plan: LoadPlan): LoadRun {
  const startedAt = performance.now();
  const elapsedMs = () => performance.now() - startedAt;
  const records = new Array<RequestRecord>(plan.requests);
  let next = 0;

  const worker = async () => {
    for (let i = next++; i < plan.requests; i = next++) {
      const due = (i * 1000) / plan.ratePerSec;
      if (due > elapsedMs()) await sleep(due - elapsedMs());
      const userId = `${plan.userPrefix}-${i}`;
      const sentAtMs = elapsedMs();
      const outcome = await grabOnce(plan.url, userId, plan.timeoutMs);
      records[i] = { userId, sentAtMs, endedAtMs: elapsedMs(), outcome };
    }
  };
  const done = Promise.all(Array.from({ length: plan.concurrency }, worker)).then(() => records);
  return { done, elapsedMs };
}
