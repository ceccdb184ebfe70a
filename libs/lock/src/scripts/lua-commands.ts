import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis, Result } from 'ioredis';

/** The lock scripts as ioredis commands, typed here so callers get checked arguments. */
declare module 'ioredis' {
  interface RedisCommander<Context> {
    lockOwnerRelease(lockKey: string, wakeChannel: string, owner: string): Result<0 | 1, Context>;
    lockReentrantAcquire(lockKey: string, owner: string, leaseMs: number): Result<number | null, Context>;
    lockReentrantRelease(
      lockKey: string,
      wakeChannel: string,
      owner: string,
      leaseMs: number,
    ): Result<1 | 0 | -1, Context>;
    lockReentrantRenew(lockKey: string, owner: string, leaseMs: number): Result<0 | 1, Context>;
    lockFencedAcquire(
      lockKey: string,
      fenceKey: string,
      owner: string,
      leaseMs: number,
    ): Result<[0 | 1, number], Context>;
    lockOwnerHandoff(lockKey: string, owner: string, nextOwner: string, leaseMs: number): Result<0 | 1, Context>;
    lockReentrantHandoff(lockKey: string, owner: string, nextOwner: string, leaseMs: number): Result<0 | 1, Context>;
    lockFencedHandoff(
      lockKey: string,
      fenceKey: string,
      owner: string,
      nextOwner: string,
      leaseMs: number,
    ): Result<number, Context>;
    lockQueueAcquire(
      lockKey: string,
      queueKey: string,
      deadlinesKey: string,
      fenceKey: string,
      ...args: (string | number)[]
    ): Result<[0, number] | [1, number, 0 | 1], Context>;
    lockQueueClaim(lockKey: string, owner: string, leaseMs: number): Result<0 | 1, Context>;
    lockQueueRelease(
      lockKey: string,
      queueKey: string,
      deadlinesKey: string,
      fenceKey: string,
      ...args: (string | number)[]
    ): Result<2 | 1 | 0 | -1, Context>;
  }
}

/** Command name → [script file, number of KEYS]. */
export const LUA_COMMANDS = {
  lockOwnerRelease: ['owner-release.lua', 2],
  lockReentrantAcquire: ['reentrant-acquire.lua', 1],
  lockReentrantRelease: ['reentrant-release.lua', 2],
  lockReentrantRenew: ['reentrant-renew.lua', 1],
  lockFencedAcquire: ['fenced-acquire.lua', 2],
  lockOwnerHandoff: ['owner-handoff.lua', 1],
  lockReentrantHandoff: ['reentrant-handoff.lua', 1],
  lockFencedHandoff: ['fenced-handoff.lua', 2],
  lockQueueAcquire: ['queue-acquire.lua', 4],
  lockQueueClaim: ['queue-claim.lua', 1],
  lockQueueRelease: ['queue-release.lua', 4],
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
