import { Inject, Injectable, Logger } from '@nestjs/common';
import type { LockEvent, LockEventSink, LockEventType } from '@app/lock';
import type { Counter } from 'prom-client';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { RingBuffer } from './ring-buffer';

export interface ReplicaLockEvent extends LockEvent {
  readonly replica: string;
}

const KEEP = 5000;
const NOTEWORTHY = new Set(['timeout', 'lost', 'foreign-delete', 'release-refused']);

// The counter each event type counts on, where it has one; an acquire's wait and a hold are timed too.
const COUNTERS: Partial<Record<LockEventType, (m: MetricsService) => Counter<'strategy'>>> = {
  acquire: (m) => m.lockAcquisitions,
  timeout: (m) => m.lockTimeouts,
  renew: (m) => m.lockRenewals,
  lost: (m) => m.lockLost,
  'foreign-delete': (m) => m.lockForeignDeletes,
  'release-refused': (m) => m.lockReleaseRefused,
};

/** Where the lock library's events land: metrics, the log, and a ring buffer for timelines. */
@Injectable()
export class LockEventLog implements LockEventSink {
  private readonly logger = new Logger('Lock');
  private readonly recent = new RingBuffer<ReplicaLockEvent>(KEEP);
  /** The level main.ts gives Nest's logger: below verbose, routine events are not logged. */
  private readonly verbose: boolean;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.verbose = config.logLevel === 'verbose';
  }

  emit(event: LockEvent): void {
    this.record(event);
    this.recent.push({ ...event, replica: this.config.replicaId });
    const noteworthy = NOTEWORTHY.has(event.type);
    // Two events per grant: below the verbose level the line is not even built.
    if (!noteworthy && !this.verbose) return;
    const line =
      `${event.type} ${event.strategy} ${event.resource} replica=${this.config.replicaId} owner=${event.owner}` +
      (event.durationMs !== undefined ? ` ${event.durationMs}ms` : '') +
      (event.detail ? ` ${event.detail}` : '');
    if (noteworthy) this.logger.warn(line);
    else this.logger.verbose(line);
  }

  /** Events on `resource` (and its segments), oldest first, after `sinceMs`. */
  list(resource?: string, sinceMs = 0): ReplicaLockEvent[] {
    return this.recent.filter(
      (e) => e.at > sinceMs && (!resource || e.resource === resource || e.resource.startsWith(`${resource}:`)),
    );
  }

  private record(event: LockEvent): void {
    const labels = { strategy: event.strategy };
    COUNTERS[event.type]?.(this.metrics).inc(labels);
    const seconds = (event.durationMs ?? 0) / 1000;
    if (event.type === 'acquire') this.metrics.lockWait.observe(labels, seconds);
    if (event.type === 'release') this.metrics.lockHold.observe(labels, seconds);
  }
}
