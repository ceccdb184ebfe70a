import { drawnFenceToken } from '../fence-tokens';
import type { Attempt } from '../verbs/attempt';
import { QUEUE_TIMING } from './queue-timing';

/** What taking a lock handed over by a queue release needs of the wait. */
export interface QueueTaker {
  /** Set when the strategy fences: the resource its holders draw tokens for. */
  readonly fencedResource?: string;
  /** The claim: queue-acquire as one attempt, which finds us the owner and starts our full lease. */
  readonly claim: () => Promise<Attempt>;
  /**
   * The claim may wait: no local waiter can be handed the lock after us, we do not fence, and our
   * lease is no shorter than the claim lease (else the claim shortens it, as it must at once).
   */
  readonly mayDeferClaim: boolean;
}

/**
 * A release handed us the lock (for the claim lease) and said so: start now. A token in the
 * message is ours only if we fence. A fenced waiter handed the lock without one (by a holder of
 * another kind, before the lock had a fence counter) gets the one its claim draws.
 *
 * The claim goes out at once, or, when it may wait, only if the hold asks for its lost-lock signal
 * or outlives half the claim lease (HoldLease): a short section's release is checked by owner all
 * the same, so it costs no claim at all.
 */
export function takeFromQueue(message: string, taker: QueueTaker): Attempt {
  const resource = taker.fencedResource;
  const token = resource === undefined ? undefined : message.split(' ')[1];
  const sentAt = Date.now();
  if (taker.mayDeferClaim && resource === undefined) {
    return {
      acquired: true,
      fromQueue: true,
      sentAt,
      deferredClaim: { claimMs: QUEUE_TIMING.claimMs, claim: taker.claim },
    };
  }
  const claim = taker.claim();
  const confirmation = claim.then(
    (claimed) => (claimed.acquired ? undefined : 'the claim found the lock gone'),
    (error: unknown) => `the claim failed: ${String(error)}`,
  );
  if (resource !== undefined && !token) {
    const drawn = claim.then((claimed) => ({ handed: claimed.acquired, fenceToken: claimed.fenceToken }));
    return { acquired: true, fromQueue: true, sentAt, fenceTokenDrawn: drawnFenceToken(drawn, resource), confirmation };
  }
  return { acquired: true, fromQueue: true, sentAt, fenceToken: token ? Number(token) : undefined, confirmation };
}
