import { ceilingCosts, coresBusy, cpuPer, redisCpuMicros, totalMicros } from './cpu-cost';

// INFO cpu as Redis 7 answers it.
const info = [
  '# CPU',
  'used_cpu_sys:1.250000',
  'used_cpu_user:2.500125',
  'used_cpu_sys_children:0.000000',
  'used_cpu_user_children:0.000000',
  'used_cpu_sys_main_thread:1.200000',
  'used_cpu_user_main_thread:2.400000',
].join('\r\n');

describe('CPU cost', () => {
  it("reads Redis's user and system time from INFO cpu, in µs, and fails on a reply without them", () => {
    expect(redisCpuMicros(info)).toBe(3_750_125);
    expect(() => redisCpuMicros('# CPU\r\nused_cpu_sys:1.0')).toThrow('INFO cpu has no used_cpu_user');
  });

  it('divides over the units only when every process and Redis were measured and work was done', () => {
    expect(cpuPer(4, [{ cpuMicros: 600 }, { cpuMicros: 200 }], 100)).toEqual({ node: 200, redis: 25 });
    expect(cpuPer(0, [{ cpuMicros: 600 }], 100)).toBeUndefined();
    expect(cpuPer(4, [{ cpuMicros: 600 }, {}], 100)).toBeUndefined();
    expect(cpuPer(4, [{ cpuMicros: 600 }], undefined)).toBeUndefined();
  });

  it('gives a ceiling the cost of the reading whose rate it takes, and keeps every reading to check it by', () => {
    const a = { node: 1, redis: 1 };
    const b = { node: 2, redis: 2 };
    expect(ceilingCosts([10, 30, 20], [a, b, undefined])).toEqual({ fastest: b, all: [a, b, null] });
    expect(ceilingCosts([10, 30], [a, undefined])).toEqual({ all: [a, null] });
    expect(ceilingCosts([10, 30], [])).toEqual({});
    expect(ceilingCosts([], [])).toEqual({});
  });

  it('adds Node and Redis, and turns a rate at a cost into cores kept busy', () => {
    expect(totalMicros({ node: 900, redis: 180 })).toBe(1080);
    expect(coresBusy(1500, { node: 600, redis: 200 })).toBeCloseTo(1.2);
  });
});
