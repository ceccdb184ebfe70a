import { Global, Module } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';
import { LockEventLog } from './lock-event-log';

/** Metrics and the lock event log, shared by the lock module's factory and the controllers. */
@Global()
@Module({ providers: [MetricsService, LockEventLog], exports: [MetricsService, LockEventLog] })
export class LockEventsModule {}
