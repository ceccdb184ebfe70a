import { LockLostError } from './lock.errors';
import type { Attempt, HandOffResult } from './verbs/attempt';

/**
 * The token a fenced taker gets from a hand-off script still in flight: the one the script draws
 * along with its owner check, so it is never a guess; LockLostError when the script refused. The
 * refusal counts as handled from the start: the taker may not have reached its section yet, or
 * may never await the token (sold out), and Node ends the process on an unhandled rejection;
 * whoever awaits the token still gets it.
 */
export function drawnFenceToken(script: Promise<HandOffResult>, resource: string): Promise<number> {
  const token = script.then(
    ({ fenceToken }) => fenceToken ?? Promise.reject(new LockLostError(resource)),
    (error: unknown) => Promise.reject(new LockLostError(resource, { cause: error })),
  );
  token.catch(() => undefined);
  return token;
}

/** HeldLock.fenceToken for an attempt: the token its acquire drew, or the one its hand-off script is drawing. */
export function heldFenceToken(attempt: Attempt): Promise<number> | undefined {
  if (attempt.fenceTokenDrawn) return attempt.fenceTokenDrawn;
  return attempt.fenceToken === undefined ? undefined : Promise.resolve(attempt.fenceToken);
}
