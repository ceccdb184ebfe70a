import { randomUUID } from 'node:crypto';
import type { QueuedVerbs } from './lock-verbs';
import { RedisLockStrategy } from './redis-lock.strategy';

/**
 * Owner-checked, plus a fencing token drawn by the same script that takes (or hands off) the
 * lock: tokens strictly increase, so the store can refuse a write from a holder whose lease ran
 * out (HeldLock.fenceToken).
 */
export class FencedStrategy extends RedisLockStrategy {
  readonly name = 'fenced';
  protected readonly verbs: QueuedVerbs = { queued: true, kind: { kind: 'string', fenced: true } };

  protected ownerValue(): string {
    return randomUUID();
  }
}
