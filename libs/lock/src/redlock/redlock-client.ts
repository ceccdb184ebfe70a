import Redis, { type Result } from 'ioredis';
import { readLuaScript } from '../scripts/lua-commands';
import { readRedlockScript } from './redlock-scripts';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** scripts/redlock-release.lua: 1 when deleted, 0 when absent or someone else's. */
    redlockRelease(key: string, owner: string): Result<0 | 1, Context>;
  }
}

const releaseScript = readRedlockScript('redlock-release');
// A node's swap is the hand-off every kind of lock uses (lockHandoff, typed in lua-commands).
const handoffScript = readLuaScript('handoff.lua');

export interface RedlockClientOptions {
  /** Bound on every command to this node; a slow node costs a vote, never the whole attempt. */
  readonly perNodeTimeoutMs: number;
  /** Bound on a TCP connect to a node that is down or unreachable. */
  readonly connectTimeoutMs: number;
}

/**
 * A client for one Redlock node that fails fast: no offline queue (a command to a node that is
 * down is refused at once), no retried commands, short timeouts; it keeps reconnecting in the
 * background so a node that comes back votes again.
 */
export function createRedlockClient(url: string, options: RedlockClientOptions): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.perNodeTimeoutMs,
    connectTimeout: options.connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, 500),
  });
  // A node being down is an expected state (it shows up as votes), not a process-level error.
  client.on('error', () => undefined);
  client.defineCommand('redlockRelease', { numberOfKeys: 1, lua: releaseScript });
  client.defineCommand('lockHandoff', { numberOfKeys: 2, lua: handoffScript });
  return client;
}
