import { appendOnlyArgs, postgresDurabilityArgs, resolveConfig } from './config';

// The contract's default ports; the overrides below move every one of them by 100.
const DEFAULT_PORTS = {
  nginx: 28080,
  api: [23001, 23002, 23003],
  postgres: 25432,
  redis: 26379,
  redlock: [26381, 26382, 26383, 26384, 26385],
  control: 28099,
  lab: 28090,
};
const movedBy = (by: number) =>
  Object.fromEntries(
    Object.entries(DEFAULT_PORTS).map(([name, port]) => [
      name,
      Array.isArray(port) ? port.map((p) => p + by) : port + by,
    ]),
  );

describe('resolveConfig', () => {
  it('uses the contract defaults', () => {
    const config = resolveConfig({});
    expect(config.ports).toEqual(DEFAULT_PORTS);
    expect(config.labSparePortBase).toBe(26800);
    expect(config.labEntry.endsWith('dist/apps/lab/apps/lab/src/main.js')).toBe(true);
    expect(config.dir.endsWith('/.stack')).toBe(true);
    expect(config.chaos).toBe(true);
    expect(config.adminToken).toMatch(/^[0-9a-f]{32}$/);
    expect(config.replicaEntry.endsWith('dist/apps/api/apps/api/src/main.js')).toBe(true);
    expect(config.replicaEntryOverridden).toBe(false);
  });

  it('takes every override from the environment, as given', () => {
    const config = resolveConfig({
      STACK_DIR: '.stack/test',
      NGINX_PORT: '28180',
      API_PORT_BASE: '23101',
      PG_PORT: '25532',
      REDIS_PORT: '26479',
      REDLOCK_PORT_BASE: '26481',
      CONTROL_PORT: '28199',
      LAB_PORT: '28190',
      LAB_SPARE_PORT_BASE: '26900',
      ADMIN_TOKEN: 'given',
      CHAOS_ENABLED: 'false',
      REPLICA_ENTRY: '/tmp/x.js',
    });
    expect(config.ports).toEqual(movedBy(100));
    expect(config.labSparePortBase).toBe(26900);
    expect(config.dir.endsWith('/.stack/test')).toBe(true);
    expect(config.adminToken).toBe('given');
    expect(config.chaos).toBe(false);
    expect(config.replicaEntry).toBe('/tmp/x.js');
    expect(config.replicaEntryOverridden).toBe(true);
  });

  it('rejects a port that is not one', () => {
    expect(() => resolveConfig({ PG_PORT: '70000' })).toThrow('PG_PORT=70000 is not a port');
    expect(() => resolveConfig({ NGINX_PORT: 'http' })).toThrow('NGINX_PORT=http is not a port');
  });

  it('runs Redis with an append-only file fsynced every second unless REDIS_APPENDFSYNC says otherwise', () => {
    const fsync = (env: Record<string, string>) => appendOnlyArgs(resolveConfig(env).redisAppendFsync);
    expect(fsync({})).toEqual(['--appendonly', 'yes', '--appendfsync', 'everysec']);
    expect(fsync({ REDIS_APPENDFSYNC: 'off' })).toEqual(['--appendonly', 'no']);
    expect(fsync({ REDIS_APPENDFSYNC: 'always' })).toEqual(['--appendonly', 'yes', '--appendfsync', 'always']);
    expect(() => resolveConfig({ REDIS_APPENDFSYNC: 'sometimes' })).toThrow(/REDIS_APPENDFSYNC/);
  });

  it('runs PostgreSQL with durable commits unless PG_FSYNC=off', () => {
    const durability = (env: Record<string, string>) => postgresDurabilityArgs(resolveConfig(env).postgresFsync);
    expect(durability({})).toEqual([]);
    expect(durability({ PG_FSYNC: 'off' })).toEqual(['-c', 'fsync=off', '-c', 'synchronous_commit=off']);
    expect(() => resolveConfig({ PG_FSYNC: 'maybe' })).toThrow(/PG_FSYNC/);
  });
});
