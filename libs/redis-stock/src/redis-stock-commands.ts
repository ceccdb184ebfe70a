import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis, Result } from 'ioredis';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    stockTake(counter: string, reservations: string, id: string, leaseMs: number): Result<number, Context>;
    stockGiveBack(counter: string, reservations: string, id: string): Result<number, Context>;
    stockLoad(counter: string, fromDatabase: number): Result<0 | 1, Context>;
    stockLoadClaim(
      counter: string,
      epoch: string,
      claim: string,
      token: string,
      leaseMs: number,
    ): Result<-1 | 0 | 1, Context>;
    stockLoadBuyers(buyers: string, claim: string, token: string, ...pairs: string[]): Result<number, Context>;
    stockLoadEpoch(
      counter: string,
      epoch: string,
      claim: string,
      fromDatabase: number,
      newEpoch: string,
      token: string,
    ): Result<-1 | 1, Context>;
    stockUnclaim(claim: string, token: string): Result<0 | 1, Context>;
    stockVoid(
      counter: string,
      reservations: string,
      generation: string,
      epoch: string,
      claim: string,
      buyers: string,
      deadBuyers: string,
    ): Result<number, Context>;
    stockReconcile(
      counter: string,
      reservations: string,
      orders: string,
      generation: string,
      seen: string,
      generationSeen: string,
      ofRecord: number,
    ): Result<-2 | -1 | 0 | 1, Context>;
  }
}

const SCRIPTS = {
  stockTake: { file: 'stock-take.lua', keys: 2 },
  stockGiveBack: { file: 'stock-give-back.lua', keys: 2 },
  stockLoad: { file: 'stock-load.lua', keys: 1 },
  stockLoadClaim: { file: 'stock-load-claim.lua', keys: 3 },
  stockLoadBuyers: { file: 'stock-load-buyers.lua', keys: 2 },
  stockLoadEpoch: { file: 'stock-load-epoch.lua', keys: 3 },
  stockUnclaim: { file: 'stock-unclaim.lua', keys: 1 },
  stockVoid: { file: 'stock-void.lua', keys: 7 },
  stockReconcile: { file: 'stock-reconcile.lua', keys: 4 },
} as const;

/** Registers the stock scripts on a client once (ioredis then runs them by SHA, loading on NOSCRIPT). */
export function defineStockCommands(client: Redis): void {
  defineScripts(client, SCRIPTS);
}

/** Registers each `scripts/<file>.lua` under its command name, unless the client has it already. */
export function defineScripts(
  client: Redis,
  scripts: Readonly<Record<string, { readonly file: string; readonly keys: number }>>,
): void {
  for (const [name, { file, keys }] of Object.entries(scripts)) {
    if (typeof (client as unknown as Record<string, unknown>)[name] === 'function') continue;
    client.defineCommand(name, { numberOfKeys: keys, lua: readFileSync(join(__dirname, 'scripts', file), 'utf8') });
  }
}

/**
 * A coupon's Redis stock: the counter, its epoch, its load claim, its reservations, its buyers and
 * its reset generation share the coupon's hash tag (one cluster slot). The generation is named
 * apart from the counter's prefix, so clearing `counter*` leaves it counting.
 */
export interface StockKeys {
  readonly counter: string;
  /** The database's counter epoch the counter was loaded in (redis-stream orders carry it). */
  readonly epoch: string;
  /** Held by the one process loading the counter, or by a reset while it runs. */
  readonly loading: string;
  readonly reservations: string;
  /** redis-stream's buyers, a hash userId -> orderId: rebuilt from the grants when the counter is loaded. */
  readonly buyers: string;
  /**
   * redis-stream's given-up buyers, a hash userId -> {"orderId":…,"reason":…}: what the grant
   * lookup tells; dropped by a reset with the buyers, so the new sale starts with none.
   */
  readonly deadBuyers: string;
  readonly generation: string;
}

export function stockKeys(couponId: number): StockKeys {
  const counter = `stock:{coupon:${couponId}}`;
  return {
    counter,
    epoch: `${counter}:epoch`,
    loading: `${counter}:loading`,
    reservations: `${counter}:reserved`,
    buyers: `${counter}:buyers`,
    deadBuyers: `${counter}:dead-buyers`,
    generation: `stock-generation:{coupon:${couponId}}`,
  };
}

/**
 * How long a reservation may stay unpersisted before reconciliation may give it back: longer than
 * any persist can last (the database cancels a statement at 10 s, its client gives up at 15 s),
 * so a unit whose persist may still commit is never given back.
 */
export const RESERVATION_MS = 30_000;

/** A reservation's id names its user, so reconciliation can look its grant up. */
export const reservationId = (userId: string, nonce: string) => `${userId}|${nonce}`;
export const reservationUser = (id: string) => id.slice(0, id.lastIndexOf('|'));
