import { Logger } from '@nestjs/common';
import type { LockEventType } from '@app/lock';
import type { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { LockEventLog } from './lock-event-log';

describe('LockEventLog', () => {
  afterEach(() => jest.restoreAllMocks());

  it('counts each event type on its own series, and times waits and holds', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'verbose').mockImplementation(() => undefined);
    const metrics = new MetricsService();
    const log = new LockEventLog({ replicaId: 'api-1', logLevel: 'verbose' } as AppConfig, metrics);
    const types: LockEventType[] = [
      'acquire',
      'release',
      'timeout',
      'renew',
      'lost',
      'foreign-delete',
      'release-refused',
      'release-failed',
    ];
    for (const type of types)
      log.emit({ type, strategy: 'watchdog', resource: 'coupon:1', owner: 'o', at: 1, durationMs: 500 });
    const text = await metrics.registry.metrics();
    for (const series of [
      'oversell_lock_acquisitions_total',
      'oversell_lock_timeouts_total',
      'oversell_lock_renewals_total',
      'oversell_lock_lost_total',
      'oversell_lock_foreign_deletes_total',
      'oversell_lock_release_refused_total',
      'oversell_lock_wait_seconds_count',
      'oversell_lock_hold_seconds_count',
    ])
      expect(text).toContain(`${series}{strategy="watchdog"} 1\n`);
    expect(text).toContain('oversell_lock_wait_seconds_sum{strategy="watchdog"} 0.5\n');
    expect(log.list('coupon:1')).toHaveLength(types.length);
  });

  it('logs the noteworthy events always, and the routine ones only at the verbose level', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const verbose = jest.spyOn(Logger.prototype, 'verbose').mockImplementation(() => undefined);
    const logAt = (logLevel: AppConfig['logLevel']) =>
      new LockEventLog({ replicaId: 'api-1', logLevel } as AppConfig, new MetricsService());
    const event = (type: LockEventType) => ({ type, strategy: 'watchdog', resource: 'coupon:1', owner: 'o', at: 1 });

    const quiet = logAt('log');
    quiet.emit(event('acquire'));
    quiet.emit(event('lost'));
    expect(verbose).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith('lost watchdog coupon:1 replica=api-1 owner=o');
    expect(quiet.list('coupon:1')).toHaveLength(2); // the timeline keeps every event either way

    logAt('verbose').emit(event('acquire'));
    expect(verbose).toHaveBeenCalledWith('acquire watchdog coupon:1 replica=api-1 owner=o');
  });
});
