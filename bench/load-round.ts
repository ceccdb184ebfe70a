import autocannon from 'autocannon';
import { emptyStatusCounts, countStatus } from './metrics/verdict';
import type { StatusCounts } from './types';

export interface RoundSpec {
  /** Full URL including the query, e.g. http://…/coupons/7/grab?strategy=setnx&workMs=5. */
  readonly url: string;
  readonly amount: number;
  readonly connections: number;
  /** Grabs: POSTs, one distinct userId per request under this prefix. Without it: GETs. */
  readonly userPrefix?: string;
  /** The design's success answer: 200 granted, or 202 accepted. */
  readonly successStatus?: number;
  readonly onProgress?: (answered: number, counts: Readonly<StatusCounts>) => void;
}

export type RoundOutcome = Awaited<ReturnType<typeof runRound>>;

/**
 * One autocannon round with a fixed request count (`amount`, split evenly over connections, so
 * no request is sent that the counts do not account for).
 */
export async function runRound(spec: RoundSpec) {
  const { userPrefix } = spec;
  const statuses = emptyStatusCounts();
  const success = spec.successStatus ?? 200;
  const grantedMs: number[] = [];
  const turnedAwayMs: number[] = [];
  let nextUser = 0;
  let lastGrantAt = 0;
  let lastAnswerAt = 0;
  const startedAt = Date.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        amount: spec.amount,
        connections: Math.min(spec.connections, spec.amount),
        timeout: 30,
        // autocannon notices the last answer only on its sampling tick: 1 s by default, a second
        // wasted per round. The figures here come from our own timestamps, not from its samples.
        sampleInt: 50,
        requests: [
          {
            method: userPrefix === undefined ? 'GET' : 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) =>
              userPrefix === undefined
                ? request
                : { ...request, body: JSON.stringify({ userId: `${userPrefix}-${nextUser++}` }) },
            onResponse: (status, body) => {
              countStatus(statuses, status, body, success);
              lastAnswerAt = Date.now();
              if (status === success) lastGrantAt = lastAnswerAt;
              spec.onProgress?.(grantedMs.length + turnedAwayMs.length, statuses);
            },
          },
        ],
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', (_client, status, _bytes, responseTimeMs) =>
      (status === success ? grantedMs : turnedAwayMs).push(responseTimeMs),
    );
  });
  statuses.errors = Math.max(0, result.errors - result.timeouts);
  statuses.timeouts = result.timeouts;
  // Latencies in ms, of every success answer (200, or 202 where the design accepts) and of every other;
  // durationMs to the last answer, lastGrantAfterMs to the last success (0 when none came).
  return {
    startedAt,
    durationMs: (lastAnswerAt || Date.now()) - startedAt,
    answered: grantedMs.length + turnedAwayMs.length,
    statuses,
    grantedMs,
    turnedAwayMs,
    lastGrantAfterMs: lastGrantAt === 0 ? 0 : lastGrantAt - startedAt,
  };
}
