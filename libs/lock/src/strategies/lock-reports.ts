import { Logger } from '@nestjs/common';
import type { LockEventSink, LockEventType } from '../lock-events';
import { LockAbortedError, LockTimeoutError } from '../lock.errors';
import type { ReleaseOutcome, ReleaseStatus } from '../verbs/attempt';
import type { LockCall } from './lock-call';

/** How each release status is reported. */
const releaseEvent: Record<ReleaseStatus, LockEventType> = {
  released: 'release',
  'still-held': 'release',
  'not-held': 'release-refused',
  expired: 'lost',
  'foreign-delete': 'foreign-delete',
};

/** A Redis strategy's events and log lines, and the errors that end a call's wait. */
export class LockReports {
  private readonly logger = new Logger('Lock');

  constructor(
    private readonly strategy: string,
    private readonly events: LockEventSink,
  ) {}

  emit(
    type: LockEventType,
    resource: string,
    owner: string,
    extra: { durationMs?: number; detail?: string } = {},
  ): void {
    this.events.emit({ type, strategy: this.strategy, resource, owner, at: Date.now(), ...extra });
  }

  acquired(call: LockCall, acquiredAt: number, detail: string | undefined): void {
    this.emit('acquire', call.keys.resource, call.owner, { durationMs: Math.round(acquiredAt - call.started), detail });
  }

  released(call: LockCall, outcome: ReleaseOutcome, heldMs: number): void {
    const detail = outcome.detail ?? (outcome.status === 'released' ? undefined : outcome.status);
    this.emit(releaseEvent[outcome.status], call.keys.resource, call.owner, { durationMs: Math.round(heldMs), detail });
    if (outcome.status === 'foreign-delete') {
      this.logger.warn(`${this.strategy}: ${call.owner} deleted ${call.keys.lock} held by ${outcome.detail}`);
    }
  }

  releaseFailed(call: LockCall, error: unknown): void {
    this.emit('release-failed', call.keys.resource, call.owner, { detail: String(error) });
    this.logger.warn(`${this.strategy}: release of ${call.keys.lock} failed: ${String(error)}`);
  }

  /** The wait ran out; `holderTtlMs`, when known, is a fair Retry-After. */
  timedOut(call: LockCall, holderTtlMs?: number): LockTimeoutError {
    const waitedMs = Math.round(performance.now() - call.started);
    this.emit('timeout', call.keys.resource, call.owner, { durationMs: waitedMs });
    const retryAfter = holderTtlMs !== undefined && holderTtlMs > 0 ? holderTtlMs : undefined;
    return new LockTimeoutError(call.keys.resource, waitedMs, retryAfter);
  }

  aborted(call: LockCall): LockAbortedError {
    const durationMs = Math.round(performance.now() - call.started);
    this.emit('timeout', call.keys.resource, call.owner, { durationMs, detail: 'cancelled' });
    return new LockAbortedError(call.keys.resource, { cause: call.signal?.reason });
  }
}
