import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis, Result } from 'ioredis';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    stockTake(counter: string, reservations: string, id: string, leaseMs: number): Result<number, Context>;
    stockGiveBack(counter: string, reservations: string, id: string): Result<number, Context>;
    stockLoad(counter: string, fromDatabase: number): Result<0 | 1, Context>;
    stockLoadAt(counter: string, generation: string, fromDatabase: number, readAt: string): Result<-1 | 0 | 1, Context>;
    stockVoid(counter: string, reservations: string, generation: string): Result<number, Context>;
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
  stockLoadAt: { file: 'stock-load-at.lua', keys: 2 },
  stockVoid: { file: 'stock-void.lua', keys: 3 },
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
 * A coupon's Redis stock: the counter, its reservations and its reset generation share the
 * coupon's hash tag (one cluster slot). The generation is named apart from the counter's prefix,
 * so clearing `counter*` leaves it counting.
 */
export interface StockKeys {
  readonly counter: string;
  readonly reservations: string;
  readonly generation: string;
}

export function stockKeys(couponId: number): StockKeys {
  const counter = `stock:{coupon:${couponId}}`;
  return { counter, reservations: `${counter}:reserved`, generation: `stock-generation:{coupon:${couponId}}` };
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
