import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The replica's Prometheus registry: grabs, HTTP, and the lock events per strategy. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly grabs = this.counter('oversell_grabs_total', 'Grab answers by strategy and outcome code', [
    'strategy',
    'outcome',
  ]);
  readonly grabDuration = this.histogram('oversell_grab_duration_seconds', 'Time to answer a grab', ['strategy']);
  readonly soldOutFromMemory = this.counter(
    'oversell_sold_out_from_memory_total',
    'Sold-out answers given from the memo, without a database round trip',
    [],
  );
  readonly optimisticRetries = this.counter(
    'oversell_optimistic_retries_total',
    'Optimistic attempts lost to a concurrent write',
    [],
  );
  readonly ordersPersisted = this.counter(
    'oversell_orders_persisted_total',
    'Accepted orders (redis-stream) written as grants by this replica',
    [],
  );
  readonly ordersDeadLettered = this.counter(
    'oversell_orders_dead_lettered_total',
    'Accepted orders (redis-stream) given up: refused by the database, or failing on their own',
    [],
  );

  readonly lockWait = this.histogram('oversell_lock_wait_seconds', 'Time spent waiting to acquire a lock', [
    'strategy',
  ]);
  readonly lockHold = this.histogram('oversell_lock_hold_seconds', 'Time a lock was held', ['strategy']);
  readonly lockAcquisitions = this.counter('oversell_lock_acquisitions_total', 'Locks acquired', ['strategy']);
  readonly lockTimeouts = this.counter('oversell_lock_timeouts_total', 'Acquisitions that ran out of wait budget', [
    'strategy',
  ]);
  readonly lockRenewals = this.counter('oversell_lock_renewals_total', 'Lease renewals by the watchdog', ['strategy']);
  readonly lockLost = this.counter('oversell_lock_lost_total', 'Locks found lost while held', ['strategy']);
  readonly lockForeignDeletes = this.counter(
    'oversell_lock_foreign_deletes_total',
    "Releases that deleted another holder's lock",
    ['strategy'],
  );
  readonly lockReleaseRefused = this.counter(
    'oversell_lock_release_refused_total',
    'Releases refused because the lock was no longer ours',
    ['strategy'],
  );

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  private counter<L extends string>(name: string, help: string, labelNames: L[]) {
    return new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: L[]) {
    return new Histogram<L>({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers: [this.registry] });
  }
}
