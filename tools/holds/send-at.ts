import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';

/** This process's wall clock, ms, finer than Date.now(). */
export const clientNowMs = (): number => performance.timeOrigin + performance.now();

/**
 * The database's clock minus ours, ms, read once: of a few `clock_timestamp()` readings, the one
 * with the shortest round trip, against its midpoint. A deadline the database set is then
 * `deadline - offset` on our clock.
 */
export async function databaseClockOffsetMs(databaseUrl: string, readings = 5): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    let best = { roundTripMs: Infinity, offsetMs: 0 };
    for (let i = 0; i < readings; i++) {
      const sentAt = clientNowMs();
      const { rows } = await db.query<{ now: number }>(
        'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now',
      );
      const answeredAt = clientNowMs();
      if (answeredAt - sentAt < best.roundTripMs)
        best = { roundTripMs: answeredAt - sentAt, offsetMs: rows[0].now - (sentAt + answeredAt) / 2 };
    }
    return best.offsetMs;
  } finally {
    await db.end();
  }
}

/** A timer fires up to a millisecond or two past its time: it wakes this much early, and the rest is watched. */
export const WATCH_MS = 2;

/**
 * Resolves at `aimMs` on `now`'s clock, not before and as little after as the event loop allows:
 * a timer to WATCH_MS before the aim, then one event-loop turn after another until the aim.
 */
export async function until(aimMs: number, now: () => number = clientNowMs): Promise<void> {
  const asleepMs = aimMs - WATCH_MS - now();
  if (asleepMs > 0) await sleep(asleepMs);
  while (now() < aimMs) await nextTurn();
}
