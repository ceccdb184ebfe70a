import { renderFailoverSection } from './failover-section';
import { scenarioResult } from './scenario-result.fixture';

describe('README failover section', () => {
  const doubled = scenarioResult({
    strategy: 'watchdog',
    doubleHoldersExpected: true,
    audit: { ...scenarioResult({}).audit, maxConcurrentHolders: 2, lostUpdates: 3 },
  });

  it('names the topology and WAIT setting, and counts the lease locks that had two holders', () => {
    const md = renderFailoverSection({
      runs: [
        {
          startedAt: '2026-11-25T10:00:00.000Z',
          redis: { mode: 'sentinel', waitReplicas: 0 },
          results: [doubled, scenarioResult({ strategy: 'fenced' })],
        },
        { startedAt: '2026-11-25T11:00:00.000Z', redis: { mode: 'cluster', waitReplicas: 1 }, results: [] },
      ],
    });
    expect(md).toContain(
      '**Redis under Sentinel (primary, replica, three Sentinels), no WAIT**: lease locks: 1 of 1 run(s) had two holders at once (watchdog), 3 lost update(s) in all: counted, as the seeds warn.',
    );
    expect(md).toContain('| redis-restart | watchdog | 600 | 239 | 0 | 239 | 0 | 3 | 2 (expected) |');
    expect(md).toContain('| redis-restart | fenced | 600 | 239 | 0 | 239 | 0 | 0 | 1 |');
    expect(md).toContain(
      '**Redis Cluster (3 masters, 3 replicas), LOCK_WAIT_REPLICAS=1 (a lock is had only once 1 replica(s) have it)**: no lease lock ran.',
    );
  });
});
