import autocannon from 'autocannon';
import { machineBusyMs } from './machine';
import { classify, emptyStatusCounts, type StatusCounts } from './metrics/verdict';

export type RoundOutcome = Awaited<ReturnType<typeof runRound>>;

/**
 * One autocannon round of exactly `amount` requests: POST grabs of a distinct userId each with a `userPrefix`, else
 * GETs. `successStatus` is the design's success answer: 200 granted, or 202 accepted.
 */
export async function runRound(spec: {
  readonly url: string;
  readonly amount: number;
  readonly connections: number;
  readonly userPrefix?: string;
  readonly successStatus?: number;
  readonly onProgress?: (answered: number, counts: StatusCounts) => void;
}) {
  const { userPrefix, successStatus: success = 200 } = spec;
  const statuses = emptyStatusCounts();
  const grantedMs: number[] = [];
  const turnedAwayMs: number[] = [];
  let nextUser = 0;
  let answered = 0;
  let lastGrantAt = 0;
  let lastAnswerAt = 0;
  let busyAtLastAnswer: number | undefined;
  const startedAt = Date.now();
  const busyAtStart = machineBusyMs();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        amount: spec.amount,
        connections: Math.min(spec.connections, spec.amount),
        timeout: 30,
        // autocannon notices the last answer only on its sampling tick, 1 s by default: a second wasted per round.
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
              statuses[classify(status, body, success)] += 1;
              answered += 1;
              lastAnswerAt = Date.now();
              if (status === success) lastGrantAt = lastAnswerAt;
              // The machine's CPU at the last answer, not when autocannon notices the end.
              if (answered === spec.amount) busyAtLastAnswer = machineBusyMs();
              spec.onProgress?.(answered, statuses);
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
  const busyAtEnd = busyAtLastAnswer ?? machineBusyMs();
  return {
    durationMs: (lastAnswerAt || Date.now()) - startedAt,
    answered,
    statuses,
    grantedMs,
    turnedAwayMs,
    lastGrantAfterMs: lastGrantAt === 0 ? 0 : lastGrantAt - startedAt,
    // The whole machine's CPU time (every process) from the start to the last answer (Linux only).
    machineCpuMs: busyAtStart === undefined || busyAtEnd === undefined ? undefined : busyAtEnd - busyAtStart,
  };
}
