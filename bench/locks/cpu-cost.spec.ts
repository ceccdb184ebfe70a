import { setTimeout as sleep } from 'node:timers/promises';
import { cpuOfFastest, cpuPer, formatCpu, processCpuUntil, redisCpuMicros } from './cpu-cost';

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

/** Spins the event loop's thread for `ms` of wall time. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

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

  it('takes the cost of the fastest reading, as the ceilings take their rate', () => {
    const a = { node: 1, redis: 1 };
    const b = { node: 2, redis: 2 };
    expect(cpuOfFastest([10, 30, 20], [a, b, a])).toBe(b);
    expect(cpuOfFastest([], [])).toBeUndefined();
  });

  it('formats the total, then Node and Redis apart', () => {
    expect(formatCpu({ node: 900.4, redis: 180 })).toBe('1080 µs (900 Node + 180 Redis)');
  });

  it("counts this process's CPU time up to the window's end, not the work after it", async () => {
    const open = processCpuUntil(Date.now() + 60_000);
    spin(30);
    expect(open.read()).toBeGreaterThanOrEqual(15_000);

    const closed = processCpuUntil(Date.now() + 20);
    await sleep(60); // idle past the end: the timer has taken the reading
    spin(60);
    expect(closed.read()).toBeLessThan(30_000);
  });
});
