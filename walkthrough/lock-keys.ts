import Redis from 'ioredis';
import { couponLockResource } from '@app/contract';
import { lockKeys } from '@app/lock';
import { WaitTimeoutError } from './walkthrough.errors';

/** The lock key of a coupon (or of one of its stock segments), as the API names them. */
export function lockKey(couponId: number | string, segment?: number): string {
  return lockKeys(couponLockResource(couponId, segment)).lock;
}

/** The resource name lock events carry for the same lock. */
export const lockResource = couponLockResource;

export interface KeyState {
  readonly exists: boolean;
  /** Remaining lease in ms; -1 when the key never expires; -2 when absent. */
  readonly pttlMs: number;
  /** The holder's mark: the string value, or the hash's field(s) for reentrant locks. */
  readonly holder: string | null;
}

/** Reads the lock keys straight from Redis: what the lock really is, whatever the API says. */
export class LockKeys {
  constructor(readonly redis: Redis) {}

  static connect(url: string): LockKeys {
    const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
    // Steps stop Redis on purpose: a refused reconnect is expected, and a command still fails loudly.
    redis.on('error', () => undefined);
    return new LockKeys(redis);
  }

  async peek(key: string): Promise<KeyState> {
    const [type, pttl] = await Promise.all([this.redis.type(key), this.redis.pttl(key)]);
    if (type === 'none') return { exists: false, pttlMs: -2, holder: null };
    const holder =
      type === 'hash'
        ? Object.entries(await this.redis.hgetall(key))
            .map(([field, count]) => `${field}×${count}`)
            .join(',')
        : await this.redis.get(key);
    return { exists: true, pttlMs: pttl, holder };
  }

  /** Polls until the key exists (a holder has it); returns its state. */
  async waitUntilHeld(key: string, timeoutMs: number): Promise<KeyState> {
    return this.poll(key, (s) => s.exists, timeoutMs, 'held');
  }

  /** Polls until the key is gone (expired or deleted); returns when that was seen. */
  async waitUntilGone(key: string, timeoutMs: number): Promise<number> {
    await this.poll(key, (s) => !s.exists, timeoutMs, 'gone');
    return Date.now();
  }

  /** Polls until the key is held by a different holder than `holder`. */
  async waitUntilHolderIsNot(key: string, holder: string | null, timeoutMs: number): Promise<KeyState> {
    return this.poll(key, (s) => s.exists && s.holder !== holder, timeoutMs, 'taken by another holder');
  }

  /** What an operator does by hand to unblock a lock that never expires. */
  async removeByHand(key: string): Promise<boolean> {
    return (await this.redis.del(key)) === 1;
  }

  close(): void {
    this.redis.disconnect();
  }

  private async poll(key: string, done: (s: KeyState) => boolean, timeoutMs: number, what: string): Promise<KeyState> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = await this.peek(key);
      if (done(state)) return state;
      if (Date.now() > deadline)
        throw new WaitTimeoutError(`${key} not ${what} within ${timeoutMs} ms (now ${JSON.stringify(state)})`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
