import { loadConfig } from './app-config';

describe('loadConfig', () => {
  const base = { ADMIN_TOKEN: 'secret-token' };

  it('applies the documented defaults', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      port: 3000,
      replicaId: 'api-1',
      chaosEnabled: false,
      leaseMs: 10_000,
      redlockUrls: [],
      waitReplicas: 0,
    });
    expect(config.handoffLimit).toBeUndefined(); // the lock library's default
  });

  it('reads the hand-off limit and the replica WAIT, and refuses them out of range', () => {
    const config = loadConfig({
      ...base,
      LOCK_HANDOFF_LIMIT: '0',
      LOCK_WAIT_REPLICAS: '1',
      LOCK_WAIT_REPLICAS_TIMEOUT_MS: '250',
    });
    expect(config).toMatchObject({ handoffLimit: 0, waitReplicas: 1, waitReplicasTimeoutMs: 250 });
    expect(() => loadConfig({ ...base, LOCK_HANDOFF_LIMIT: '-1' })).toThrow(/LOCK_HANDOFF_LIMIT/);
    expect(() => loadConfig({ ...base, LOCK_WAIT_REPLICAS: 'two' })).toThrow(/LOCK_WAIT_REPLICAS/);
  });

  it("reads the order persisters' reclaim idle time and failure limit, and refuses them out of range", () => {
    expect(loadConfig(base)).toMatchObject({
      orderReclaimIdleMs: 15_000,
      orderMaxFailures: 5,
      databaseStatementTimeoutMs: 10_000,
    });
    const short = {
      ...base,
      DATABASE_STATEMENT_TIMEOUT_MS: '500',
      ORDER_RECLAIM_IDLE_MS: '2600',
      ORDER_MAX_FAILURES: '2',
    };
    expect(loadConfig(short)).toMatchObject({
      databaseStatementTimeoutMs: 500,
      orderReclaimIdleMs: 2600,
      orderMaxFailures: 2,
    });
    expect(() => loadConfig({ ...base, ORDER_RECLAIM_IDLE_MS: '10' })).toThrow(/ORDER_RECLAIM_IDLE_MS/);
    expect(() => loadConfig({ ...base, ORDER_MAX_FAILURES: '0' })).toThrow(/ORDER_MAX_FAILURES/);
  });

  it('refuses a reclaim idle time a statement of the last delivery could outlive', () => {
    expect(() => loadConfig({ ...base, ORDER_RECLAIM_IDLE_MS: '5000' })).toThrow(/must exceed .* \(12000 ms\)/);
    expect(() => loadConfig({ ...base, DATABASE_STATEMENT_TIMEOUT_MS: '500', ORDER_RECLAIM_IDLE_MS: '2500' })).toThrow(
      /ORDER_RECLAIM_IDLE_MS \(2500\)/,
    );
  });

  it('picks the Redis topology: one server, Sentinels (with their name) or cluster nodes', () => {
    expect(loadConfig({ ...base, REDIS_URL: 'redis://r:1' }).redis).toEqual({ kind: 'single', url: 'redis://r:1' });
    expect(
      loadConfig({ ...base, REDIS_SENTINEL_URLS: 'redis://s:1,redis://s:2', REDIS_SENTINEL_NAME: 'oversell' }).redis,
    ).toEqual({ kind: 'sentinel', sentinelUrls: ['redis://s:1', 'redis://s:2'], name: 'oversell' });
    expect(loadConfig({ ...base, REDIS_CLUSTER_URLS: 'redis://c:1, redis://c:2' }).redis).toEqual({
      kind: 'cluster',
      nodeUrls: ['redis://c:1', 'redis://c:2'],
    });
    expect(() => loadConfig({ ...base, REDIS_SENTINEL_URLS: 'redis://s:1' })).toThrow(/REDIS_SENTINEL_NAME/);
  });

  it('refuses a missing admin token and malformed numbers', () => {
    expect(() => loadConfig({})).toThrow(/ADMIN_TOKEN/);
    expect(() => loadConfig({ ...base, PORT: '80a' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...base, CHAOS_ENABLED: 'yes' })).toThrow(/CHAOS_ENABLED/);
  });

  it('reads chaos and the redlock node list', () => {
    const config = loadConfig({ ...base, CHAOS_ENABLED: 'true', REDLOCK_URLS: 'redis://a:1, redis://b:2' });
    expect(config.chaosEnabled).toBe(true);
    expect(config.redlockUrls).toEqual(['redis://a:1', 'redis://b:2']);
  });
});
