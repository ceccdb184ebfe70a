import { loadConfig } from './app-config';

describe('loadConfig', () => {
  const base = { ADMIN_TOKEN: 'secret-token' };

  it('applies the documented defaults', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({ port: 3000, replicaId: 'api-1', chaosEnabled: false, leaseMs: 10_000, redlockUrls: [] });
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
