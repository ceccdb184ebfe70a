import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis, Result } from 'ioredis';

/** The lock scripts as ioredis commands, typed here so callers get checked arguments. */
declare module 'ioredis' {
  interface RedisCommander<Context> {
    lockAcquire(
      lockKey: string,
      queueKey: string,
      heartbeatsKey: string,
      fenceKey: string,
      owner: string,
      tag: string,
      leaseMs: number,
      heartbeatMs: number,
      kind: LockKind,
      fenced: '0' | '1',
    ): Result<[0 | 1, number], Context>;
    lockRelease(
      lockKey: string,
      queueKey: string,
      owner: string,
      kind: LockKind,
      leaseMs: number,
      wakePrefix: string,
    ): Result<1 | 0 | -1, Context>;
    lockHandoff(
      lockKey: string,
      fenceKey: string,
      owner: string,
      taker: string,
      leaseMs: number,
      kind: LockKind,
      fenced: '0' | '1',
    ): Result<number, Context>;
    lockRenew(lockKey: string, owner: string, leaseMs: number): Result<0 | 1, Context>;
  }
}

/** How a lock is stored: a string (the owner value) or a reentrant hash (owner → hold count). */
export type LockKind = 'string' | 'hash';

/** Command name → [script file, number of KEYS]. */
export const LUA_COMMANDS = {
  lockAcquire: ['acquire.lua', 4],
  lockRelease: ['release.lua', 2],
  lockHandoff: ['handoff.lua', 2],
  lockRenew: ['renew.lua', 1],
} as const;

/**
 * The text of a script. From source (jest, tsx) it sits next to this file; in the build, Nest's
 * asset copy keeps the last folder of the source path, so it lands one `scripts/` deeper.
 */
export function readLuaScript(file: string): string {
  const candidates = [join(__dirname, file), join(__dirname, 'scripts', file)];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`lock script ${file} not found in ${candidates.join(' or ')}`);
  return readFileSync(found, 'utf8');
}

const scriptTexts = new Map<string, string>();

/** Registers every lock script on `redis` (EVALSHA with an EVAL fallback, done by ioredis). */
export function defineLockCommands(redis: Redis): Redis {
  for (const [name, [file, numberOfKeys]] of Object.entries(LUA_COMMANDS)) {
    let lua = scriptTexts.get(file);
    if (lua === undefined) {
      lua = readLuaScript(file);
      scriptTexts.set(file, lua);
    }
    redis.defineCommand(name, { lua, numberOfKeys });
  }
  return redis;
}
