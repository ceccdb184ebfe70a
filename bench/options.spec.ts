import { parseBenchArgs } from './options';

describe('parseBenchArgs', () => {
  it('takes the full defaults without options: two loads, three sell-out races', () => {
    const { settings, outDir } = parseBenchArgs([]);
    expect(settings).toEqual({
      strategies: [],
      stock: 1000,
      requests: 2000,
      warmupRequests: 200,
      connections: 50,
      loads: [0, 5],
      segments: 8,
      sellOutRuns: 3,
    });
    expect(outDir).toBe('bench/results');
  });

  it('keeps the stack it started running only when asked', () => {
    expect(parseBenchArgs([]).keepStack).toBe(false);
    expect(parseBenchArgs(['--keep-stack', '--quick']).keepStack).toBe(true);
  });

  it('makes --quick small and lets explicit options win', () => {
    const { settings, outDir } = parseBenchArgs([
      '--quick',
      '--stock',
      '40',
      '--strategies',
      'none, setnx',
      '--work-ms',
      '3',
      '--out',
      '/tmp/x',
    ]);
    expect(settings).toMatchObject({
      stock: 40,
      requests: 160,
      warmupRequests: 16,
      connections: 16,
      loads: [3],
      strategies: ['none', 'setnx'],
    });
    expect(outDir).toBe('/tmp/x');
  });

  it('runs --quick at workMs 0 and 2 unless told otherwise', () => {
    expect(parseBenchArgs(['--quick']).settings.loads).toEqual([0, 2]);
  });

  it('never asks for more connections or warm-up grabs than requests', () => {
    expect(parseBenchArgs(['--requests', '10'])).toMatchObject({ settings: { connections: 10, warmupRequests: 10 } });
  });

  it('rejects out-of-range and unknown options', () => {
    expect(() => parseBenchArgs(['--segments', '65'])).toThrow('--segments must be an integer in 1…64, got 65');
    expect(() => parseBenchArgs(['--stokc', '1'])).toThrow();
  });

  describe('--work-ms', () => {
    it('takes a list of loads, in the order given, spaces allowed', () => {
      expect(parseBenchArgs(['--work-ms', '0,5']).settings.loads).toEqual([0, 5]);
      expect(parseBenchArgs(['--work-ms', '20, 0 ,5']).settings.loads).toEqual([20, 0, 5]);
      expect(parseBenchArgs(['--work-ms', '5000']).settings.loads).toEqual([5000]);
    });

    it('rejects an empty item or an empty list', () => {
      expect(() => parseBenchArgs(['--work-ms', '5,'])).toThrow(/--work-ms/);
      expect(() => parseBenchArgs(['--work-ms', ''])).toThrow(/--work-ms/);
      expect(() => parseBenchArgs(['--stock', ''])).toThrow(/--stock/);
    });

    it('rejects a value given twice', () => {
      expect(() => parseBenchArgs(['--work-ms', '5,5'])).toThrow('--work-ms needs distinct values, got 5,5');
      expect(() => parseBenchArgs(['--work-ms', '0,5,0'])).toThrow('distinct');
    });

    it('rejects values out of range or not whole', () => {
      expect(() => parseBenchArgs(['--work-ms', '0,5001'])).toThrow('--work-ms must be an integer in 0…5000, got 5001');
      expect(() => parseBenchArgs(['--work-ms=-1'])).toThrow('--work-ms must be an integer in 0…5000, got -1');
      expect(() => parseBenchArgs(['--work-ms', '1.5'])).toThrow('--work-ms must be an integer in 0…5000, got 1.5');
      expect(() => parseBenchArgs(['--work-ms', '0,five'])).toThrow('got five');
    });
  });

  it('takes the demo preset: every load, fewer grabs, one sell-out race, and --quick still wins', () => {
    expect(parseBenchArgs([], 'demo').settings).toMatchObject({
      stock: 200,
      requests: 400,
      loads: [0, 5],
      sellOutRuns: 1,
    });
    expect(parseBenchArgs(['--quick'], 'demo').settings).toMatchObject({ stock: 80, loads: [0, 2] });
    expect(parseBenchArgs(['--sell-out-runs', '0'], 'demo').settings.sellOutRuns).toBe(0);
  });
});
