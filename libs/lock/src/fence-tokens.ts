import { LockLostError } from './lock.errors';
import type { Attempt, HandOffResult } from './verbs/attempt';

/**
 * The token a fenced taker gets from a hand-off script still in flight: the one the script draws
 * along with its owner check, so it is never a guess; LockLostError when the script refused.
 */
export function drawnFenceToken(script: Promise<HandOffResult>, resource: string): Promise<number> {
  return script.then(
    ({ fenceToken }) => fenceToken ?? Promise.reject(new LockLostError(resource)),
    (error: unknown) => Promise.reject(new LockLostError(resource, { cause: error })),
  );
}

/**
 * HeldLock.fenceToken for an attempt: the token its acquire drew, or the one its hand-off script
 * is drawing. A refusal counts as handled here: a section that never writes (sold out) must not
 * crash the process with an unhandled rejection; whoever awaits the token still gets it.
 */
export function heldFenceToken(attempt: Attempt): Promise<number> | undefined {
  const known = attempt.fenceToken;
  const token = attempt.fenceTokenDrawn ?? (known === undefined ? undefined : Promise.resolve(known));
  token?.catch(() => undefined);
  return token;
}
