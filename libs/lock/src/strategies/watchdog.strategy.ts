import type { Hold } from '../held-locks';
import type { LockKeys } from '../lock-keys';
import { LockLostError } from '../lock.errors';
import { renew } from '../verbs/renew';
import { ReentrantStrategy } from './reentrant.strategy';

/**
 * Reentrant, with the lease renewed every lease/3 by the process's one renewer while held. An
 * async stall keeps the lock; a synchronous freeze stops the renewer too, the lease runs out,
 * and the frozen holder only learns it (signal aborted) once it runs again.
 */
export class WatchdogStrategy extends ReentrantStrategy {
  override readonly name = 'watchdog';

  protected override onHeld(hold: Hold, keys: LockKeys, leaseMs: number): void {
    const id = renewalId(hold);
    if (this.runtime.isRenewing(id)) return; // a nested hold: the outer one's renewal covers it
    this.runtime.renew({
      id,
      intervalMs: Math.max(1, Math.floor(leaseMs / 3)),
      renew: () => this.runtime.call((redis) => renew(redis, keys, hold.owner, leaseMs)),
      onRenewed: () => this.emit('renew', keys.resource, hold.owner),
      onLost: () => {
        this.emit('lost', keys.resource, hold.owner, { detail: 'renewal found the lock gone' });
        for (const held of this.runtime.holdsOf(hold.lockKey, hold.owner)) {
          held.lost.abort(new LockLostError(keys.resource));
        }
      },
    });
  }

  protected override async beforeRelease(hold: Hold): Promise<void> {
    // Only the outermost hold stops the renewal, and no renewal may still be in flight when
    // the release script runs.
    if (this.runtime.holdsOf(hold.lockKey, hold.owner).length > 1) return;
    await this.runtime.stopRenewing(renewalId(hold));
  }
}

function renewalId(hold: Hold): string {
  return `${hold.lockKey}\n${hold.owner}`;
}
