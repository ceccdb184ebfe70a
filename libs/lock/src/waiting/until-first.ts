/**
 * Resolves when any of `events` settles or after `ms`, clearing its timer either way. An infinite
 * `ms` sets no timer (Node would fire one at once).
 */
export async function untilFirst(ms: number, ...events: Promise<unknown>[]): Promise<void> {
  if (!Number.isFinite(ms)) {
    await Promise.race(events);
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))));
  try {
    await Promise.race([timeout, ...events]);
  } finally {
    clearTimeout(timer);
  }
}
