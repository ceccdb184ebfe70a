/** Lock events feed metrics, logs and the walkthrough's timelines. */
export type LockEventType =
  | 'acquire'
  | 'release'
  | 'timeout'
  | 'renew'
  | 'lost'
  | 'foreign-delete'
  | 'release-refused'
  | 'release-failed'
  | 'replicas-missing';

export interface LockEvent {
  readonly type: LockEventType;
  readonly strategy: string;
  readonly resource: string;
  readonly owner: string;
  /** Wall-clock time of the event, ms since the epoch. */
  readonly at: number;
  /** acquire: how long the caller waited; release: how long the lock was held. */
  readonly durationMs?: number;
  /** Free-form detail, e.g. the value found by a foreign delete. */
  readonly detail?: string;
}

export interface LockEventSink {
  emit(event: LockEvent): void;
}

export const LockEventSink = Symbol('LockEventSink');

export const noLockEvents: LockEventSink = { emit: () => undefined };
