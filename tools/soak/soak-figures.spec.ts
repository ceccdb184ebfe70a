import { parseSample, type ReplicaSample } from './replica-samples';
import { lagP99, memoryGrowth } from './soak-figures';

const s = (atMs: number, replica: string, startedAt: number, rssMb: number, lagP99Ms = 5): ReplicaSample => ({
  atMs,
  replica,
  startedAt,
  rssMb,
  heapMb: rssMb / 2,
  lagP99Ms,
});

describe('memoryGrowth', () => {
  it('measures each process from its first sample after the warm-up to the end', () => {
    const samples = [
      s(0, 'api-1', 1, 50),
      s(60_000, 'api-1', 1, 100),
      s(120_000, 'api-1', 1, 110),
      s(180_000, 'api-1', 1, 120),
    ];
    const [growth] = memoryGrowth(samples, 60_000);
    expect(growth).toMatchObject({ replica: 'api-1', fromMs: 60_000, toMs: 180_000, firstRssMb: 100, lastRssMb: 120 });
    expect(growth.rssGrowth).toBeCloseTo(0.2, 10);
  });

  it('leaves out a process killed before the end, and judges its successor from its own warm-up', () => {
    const samples = [
      s(0, 'api-2', 1, 50),
      s(60_000, 'api-2', 1, 100),
      s(70_000, 'api-2', 2, 40), // restarted: a new process
      s(130_000, 'api-2', 2, 80),
      s(200_000, 'api-2', 2, 84),
    ];
    const growth = memoryGrowth(samples, 60_000);
    expect(growth).toHaveLength(1);
    expect(growth[0]).toMatchObject({ startedAt: 2, firstRssMb: 80, lastRssMb: 84 });
  });

  it('judges no process that did not live through a whole warm-up after its own', () => {
    expect(memoryGrowth([s(0, 'api-1', 1, 50), s(30_000, 'api-1', 1, 90)], 60_000)).toEqual([]);
  });
});

describe('lagP99', () => {
  it('takes the 99th percentile of the samples, leaving out each process start-up', () => {
    // 300 samples after the start-up: 298 quiet, 2 slow (under 1%); the start-up stall is not one of them.
    const quiet = Array.from({ length: 300 }, (_, i) => s(20_000 + i, 'api-1', 1, 1, i < 298 ? 4 : 70));
    const samples = [s(0, 'api-1', 1, 1, 900), ...quiet];
    expect(lagP99(samples, 10_000)).toBe(4);
    // Two more slow ones make it over 1%.
    expect(lagP99([...samples, s(30_000, 'api-1', 1, 1, 80), s(30_001, 'api-1', 1, 1, 80)], 10_000)).toBe(70);
    // A process's start-up is left out; without that it would count.
    expect(lagP99([s(0, 'api-1', 1, 1, 900)], 10_000)).toBe(0);
    expect(lagP99([s(0, 'api-1', 1, 1, 900)], 0)).toBe(900);
  });
});

describe('parseSample', () => {
  it("reads prom-client's default metrics", () => {
    const text = [
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      'process_resident_memory_bytes 104857600',
      'process_start_time_seconds 1763900000',
      'nodejs_heap_size_used_bytes 52428800',
      'nodejs_eventloop_lag_p99_seconds 0.012',
    ].join('\n');
    expect(parseSample(text, 'api-1', 5)).toEqual({
      atMs: 5,
      replica: 'api-1',
      startedAt: 1763900000,
      rssMb: 100,
      heapMb: 50,
      lagP99Ms: 12,
    });
    expect(parseSample('process_resident_memory_bytes 1', 'api-1', 5)).toBeUndefined();
  });
});
