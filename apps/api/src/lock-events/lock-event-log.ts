import { Inject, Injectable, Logger } from '@nestjs/common';
import type { LockEvent, LockEventSink } from '@app/lock';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';

export interface ReplicaLockEvent extends LockEvent {
  readonly replica: string;
}

const KEEP = 5000;
const NOTEWORTHY = new Set(['timeout', 'lost', 'foreign-delete', 'release-refused']);

/** Where the lock library's events land: metrics, the log, and a ring buffer for timelines. */
@Injectable()
export class LockEventLog implements LockEventSink {
  private readonly logger = new Logger('Lock');
  private readonly recent: ReplicaLockEvent[] = [];

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  emit(event: LockEvent): void {
    this.record(event);
    this.recent.push({ ...event, replica: this.config.replicaId });
    if (this.recent.length > KEEP) this.recent.splice(0, this.recent.length - KEEP);
    const line =
      `${event.type} ${event.strategy} ${event.resource} replica=${this.config.replicaId} owner=${event.owner}` +
      (event.durationMs !== undefined ? ` ${event.durationMs}ms` : '') +
      (event.detail ? ` ${event.detail}` : '');
    if (NOTEWORTHY.has(event.type)) this.logger.warn(line);
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
    const seconds = (event.durationMs ?? 0) / 1000;
    switch (event.type) {
      case 'acquire':
        this.metrics.lockAcquisitions.inc(labels);
        this.metrics.lockWait.observe(labels, seconds);
        break;
      case 'release':
        this.metrics.lockHold.observe(labels, seconds);
        break;
      case 'timeout':
        this.metrics.lockTimeouts.inc(labels);
        break;
      case 'renew':
        this.metrics.lockRenewals.inc(labels);
        break;
      case 'lost':
        this.metrics.lockLost.inc(labels);
        break;
      case 'foreign-delete':
        this.metrics.lockForeignDeletes.inc(labels);
        break;
      case 'release-refused':
        this.metrics.lockReleaseRefused.inc(labels);
        break;
    }
  }
}
