import type { DrainedStream } from '@app/redis-stock';
import { firstFew, type Check } from './check';
import type { SentBy } from './tally';

/** Strategies that answer 202 accepted and grant later: judged once the coupon's order stream drained. */
export const ACCEPTS_ORDERS: ReadonlySet<string> = new Set(['redis-stream']);

/**
 * How long before Redis's stop an order it acknowledged can be lost by design, by its append-only
 * policy (docs/async-orders.md, "Durability"): without a file (`off`), everything in its memory; with
 * one, nothing, since the suite stops Redis alone (a SIGTERM writes the file, a SIGKILL leaves it to
 * the kernel). Only a machine crash would lose `everysec`'s last second or `no`'s unflushed writes.
 * Undefined: nothing is excused (a file, a failover, an unknown policy, another fault or strategy).
 */
export function orderLossWindowMs(
  fault: string,
  redisAppendFsync: string | undefined,
  strategy: string,
): number | undefined {
  return fault === 'redis-restart' && redisAppendFsync === 'off' && ACCEPTS_ORDERS.has(strategy) ? Infinity : undefined;
}

/** What a redis-stream run observed of its orders. */
export interface OrderObservation {
  /** Buyers answered 202: each order must have become a grant once the stream drained. */
  readonly accepted: readonly SentBy[];
  /** The coupon's order stream after the wait for the drain, Redis's counter and dead letters. */
  readonly stream: Pick<DrainedStream, 'drained' | 'counter' | 'deadLettered'>;
  /**
   * Set only where `orderLossWindowMs` is: when Redis's stop was complete (ms since the start), and
   * that window. An order answered 202 within the window before it and never granted is the
   * documented loss; one answered after it may have gone to the restarted Redis, so its loss fails.
   */
  readonly redisLostMemory?: { readonly atMs: number; readonly windowMs: number };
  /** PostgreSQL's outage, ms since the start: orders accepted meanwhile must be persisted after it. */
  readonly databaseDown?: { readonly fromMs: number; readonly toMs: number };
}

/** Accepted orders that never became grants: those the documented loss covers, and the rest. */
export function lostOrders(
  orders: Pick<OrderObservation, 'accepted' | 'redisLostMemory'> | undefined,
  grantedInDb: readonly string[],
): { readonly byDesign: string[]; readonly unexcused: string[] } {
  const inDb = new Set(grantedInDb);
  const lost = (orders?.accepted ?? []).filter((a) => !inDb.has(a.userId));
  const loss = orders?.redisLostMemory;
  const covered = (a: SentBy) =>
    loss !== undefined && a.answeredAtMs < loss.atMs && a.answeredAtMs >= loss.atMs - loss.windowMs;
  return {
    byDesign: lost.filter(covered).map((a) => a.userId),
    unexcused: lost.filter((a) => !covered(a)).map((a) => a.userId),
  };
}

/**
 * redis-stream's own invariants, judged once the stream drained: every 202 became a grant (save
 * the documented loss, counted in the detail), orders accepted while PostgreSQL was down were
 * persisted after it, and Redis's counter equals the stock of record.
 */
export function orderChecks(orders: OrderObservation, grantedInDb: readonly string[], stockOfRecord: number): Check[] {
  const { accepted, stream } = orders;
  const inDb = new Set(grantedInDb);
  const lost = lostOrders(orders, grantedInDb);
  const granted = accepted.filter((a) => inDb.has(a.userId)).length;
  const checks: Check[] = [
    {
      name: 'order stream drained',
      ok: stream.drained,
      detail: stream.drained ? 'empty' : 'orders still waiting when the wait ran out',
    },
    {
      name: 'every accepted order became a grant',
      ok: lost.unexcused.length === 0,
      detail:
        `${granted} of ${accepted.length} accepted orders are grants` +
        (stream.deadLettered ? `, ${stream.deadLettered} dead-lettered` : '') +
        (lost.byDesign.length
          ? `; ${lost.byDesign.length} accepted before Redis stopped were lost with it (no append-only file: the documented loss)`
          : '') +
        (lost.unexcused.length ? `; lost: ${firstFew(lost.unexcused)}` : ''),
    },
    {
      name: "Redis's counter = stock of record",
      // An absent counter cannot be compared: the run's later grabs should have loaded it.
      ok: stream.counter === stockOfRecord,
      detail: `counter ${stream.counter ?? 'absent'}, stock of record ${stockOfRecord}`,
    },
  ];
  if (orders.databaseDown) {
    const { fromMs, toMs } = orders.databaseDown;
    const meanwhile = accepted.filter((a) => a.sentAtMs >= fromMs && a.sentAtMs < toMs);
    const persisted = meanwhile.filter((a) => inDb.has(a.userId)).length;
    checks.push({
      name: 'orders accepted while PostgreSQL was down persisted after',
      ok: meanwhile.length > 0 && persisted === meanwhile.length,
      detail:
        `${persisted} of ${meanwhile.length} accepted during the outage are grants` +
        (meanwhile.length ? '' : ': none accepted, so the outage showed nothing'),
    });
  }
  return checks;
}
