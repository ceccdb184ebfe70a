import { parseBenchArgs } from './options';

describe('parseBenchArgs', () => {
  it('takes the full defaults without options', () => {
    const { settings, outDir } = parseBenchArgs([]);
    expect(settings).toMatchObject({
      strategies: [],
      stock: 500,
      requests: 1000,
      connections: 50,
      workMs: 5,
      segments: 8,
      quick: false,
    });
    expect(outDir).toBe('bench/results');
  });

  it('makes --quick small and lets explicit options win', () => {
    const { settings } = parseBenchArgs([
      '--quick',
      '--stock',
      '40',
      '--strategies',
      'none, setnx',
      '--work-ms',
      '0',
      '--out',
      '/tmp/x',
    ]);
    expect(settings).toMatchObject({
      quick: true,
      stock: 40,
      requests: 160,
      connections: 16,
      workMs: 0,
      strategies: ['none', 'setnx'],
    });
  });

  it('never asks for more connections or warm-up grabs than requests', () => {
    expect(parseBenchArgs(['--requests', '10'])).toMatchObject({ settings: { connections: 10, warmupRequests: 10 } });
  });

  it('rejects out-of-range and unknown options', () => {
    expect(() => parseBenchArgs(['--segments', '65'])).toThrow('--segments must be an integer in 1…64, got 65');
    expect(() => parseBenchArgs(['--work-ms', '1.5'])).toThrow('--work-ms');
    expect(() => parseBenchArgs(['--stokc', '1'])).toThrow();
  });
});
