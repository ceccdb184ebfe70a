/**
 * The claim of a waiter a queue release handed the lock, sent once its critical section has begun:
 * setImmediate runs after the I/O callbacks of this turn of the event loop, by which time the
 * section, started from the wake-up's callback, has sent its first command, which then does not
 * queue behind the claim's write and script (lock micro-bench, ours without local hand-off: faster
 * in all 6 rounds paired with the claim sent first, about 15% at the median). A section that lets
 * go sooner sends it first (`sendNow`): the lease a local hand-off shares is then the full one, and
 * a lock lost meanwhile is heard as lost. The claim lease (a second at most) covers the wait: a
 * section that kept its event loop busy longer before its first command would hear the lock lost.
 */
export function claimOnceBegun(claim: () => Promise<boolean>): { answer: Promise<boolean>; sendNow: () => void } {
  let sent: Promise<boolean> | undefined;
  const send = () => (sent ??= claim());
  const answer = new Promise<void>((resolve) => setImmediate(resolve)).then(send);
  return { answer, sendNow: () => void send() };
}

/** A claim's outcome as the holder hears it: undefined while the lock is ours, else why not. */
export function confirmed(claim: Promise<boolean>): Promise<string | undefined> {
  return claim.then(
    (ours) => (ours ? undefined : 'the claim found the lock gone'),
    (error: unknown) => `the claim failed: ${String(error)}`,
  );
}
