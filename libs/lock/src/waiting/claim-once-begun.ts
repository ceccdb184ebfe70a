/**
 * The claim of a waiter a queue release handed the lock, sent once its critical section has begun.
 * setImmediate runs after the I/O callbacks of this turn of the event loop, by which time the
 * section, started from the wake-up's callback, has sent its first command: that command does not
 * queue behind the claim's write and its script (lock micro-bench, ours without local hand-off:
 * faster in all 6 rounds paired with the claim sent first, by about 15% at the median). The claim
 * lease (at most a second) covers the wait. A claim dropped before it was sent answers true: the release that dropped it checks
 * the owner value itself.
 */
export function claimOnceBegun(claim: () => Promise<boolean>): { answer: Promise<boolean>; drop: () => void } {
  let dropped = false;
  const begun = new Promise<void>((resolve) => setImmediate(resolve));
  return {
    answer: begun.then(() => (dropped ? true : claim())),
    drop: () => {
      dropped = true;
    },
  };
}

/** A claim's outcome as the holder hears it: undefined while the lock is ours, else why not. */
export function confirmed(claim: Promise<boolean>): Promise<string | undefined> {
  return claim.then(
    (ours) => (ours ? undefined : 'the claim found the lock gone'),
    (error: unknown) => `the claim failed: ${String(error)}`,
  );
}
