import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Redis from 'ioredis';
import type { Result } from 'ioredis';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    stockTake(stockKey: string): Result<number, Context>;
    stockGiveBack(stockKey: string): Result<number, Context>;
    stockLoad(stockKey: string, fromDatabase: number): Result<0 | 1, Context>;
  }
}

const SCRIPTS = {
  stockTake: 'stock-take.lua',
  stockGiveBack: 'stock-give-back.lua',
  stockLoad: 'stock-load.lua',
} as const;

/** Registers the stock scripts on a client once (ioredis then runs them by SHA, loading on NOSCRIPT). */
export function defineStockCommands(client: Redis): void {
  for (const [name, file] of Object.entries(SCRIPTS)) {
    if (typeof (client as unknown as Record<string, unknown>)[name] === 'function') continue;
    client.defineCommand(name, { numberOfKeys: 1, lua: readFileSync(join(__dirname, 'scripts', file), 'utf8') });
  }
}

/** The counter shares the coupon's hash tag with its lock keys, so a cluster keeps them together. */
export function stockKey(couponId: number): string {
  return `stock:{coupon:${couponId}}`;
}
