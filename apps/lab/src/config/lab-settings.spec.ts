import { loadLabSettings, parseReplicas } from './lab-settings';

const base = { ADMIN_TOKEN: 'lab-admin-token' };

describe('loadLabSettings', () => {
  it('defaults to the local stack, chaos off, no control endpoint and no servers of its own', () => {
    const config = loadLabSettings(base);
    expect(config).toMatchObject({
      port: 28090,
      apiUrl: 'http://127.0.0.1:28080',
      redisUrl: 'redis://127.0.0.1:26379',
      chaosEnabled: false,
      controlUrl: undefined,
      sparePorts: [],
    });
    expect(config.replicas.map((r) => r.id)).toEqual(['api-1', 'api-2', 'api-3']);
  });

  it('reads the stack it is given', () => {
    const config = loadLabSettings({
      ...base,
      API_URL: 'http://nginx:8080/',
      CHAOS_ENABLED: 'true',
      CONTROL_URL: 'http://127.0.0.1:28099',
      LAB_SPARE_PORT_BASE: '26800',
    });
    expect(config.apiUrl).toBe('http://nginx:8080');
    expect(config.chaosEnabled).toBe(true);
    expect(config.controlUrl).toBe('http://127.0.0.1:28099');
    expect(config.sparePorts).toHaveLength(10);
    expect(config.sparePorts[0]).toBe(26800);
  });

  it('refuses a missing token, a bad port or a bad URL before anything starts', () => {
    expect(() => loadLabSettings({})).toThrow('ADMIN_TOKEN');
    expect(() => loadLabSettings({ ...base, PORT: '70000' })).toThrow('PORT');
    expect(() => loadLabSettings({ ...base, API_URL: 'nginx' })).toThrow('API_URL');
    expect(() => loadLabSettings({ ...base, CHAOS_ENABLED: 'maybe' })).toThrow('CHAOS_ENABLED');
  });
});

describe('parseReplicas', () => {
  it('reads NAME=URL pairs and refuses anything else', () => {
    expect(parseReplicas('api-1=http://api-1:3000, api-2=http://api-2:3000/')).toEqual([
      { id: 'api-1', url: 'http://api-1:3000' },
      { id: 'api-2', url: 'http://api-2:3000' },
    ]);
    expect(() => parseReplicas('api-1')).toThrow('NAME=http');
    expect(() => parseReplicas('a=http://x,a=http://y')).toThrow('repeats');
    expect(() => parseReplicas('')).toThrow('no replica');
  });
});
