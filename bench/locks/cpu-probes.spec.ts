import { mainThreadSchedUntil, processCpuUntil } from './cpu-probes';

describe('processCpuUntil', () => {
  // A stand-in for the process's CPU clock, so the window's logic is checked, not the machine.
  let used = 0;
  const usedMicros = () => used;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    used = 500;
  });
  afterEach(() => jest.useRealTimers());

  it("counts up to the window's end, not the work after it", () => {
    const cpu = processCpuUntil(Date.now() + 5_000, usedMicros);
    used += 3_000;
    jest.advanceTimersByTime(5_000);
    used += 7_000; // a wait under way finishing after the window
    expect(cpu.read()).toBe(3_000);
  });

  it('gives the time so far when read before the end', () => {
    const cpu = processCpuUntil(Date.now() + 5_000, usedMicros);
    used += 1_200;
    jest.advanceTimersByTime(1_000);
    expect(cpu.read()).toBe(1_200);
    expect(jest.getTimerCount()).toBe(0); // its timer is gone
  });
});

describe('mainThreadSchedUntil', () => {
  let reading = { runMicros: 100, waitMicros: 10, preemptions: 1 };
  const advance = (run: number, wait: number, preemptions: number) =>
    (reading = {
      runMicros: reading.runMicros + run,
      waitMicros: reading.waitMicros + wait,
      preemptions: reading.preemptions + preemptions,
    });

  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it("counts up to the window's end, as the CPU time is", () => {
    const sched = mainThreadSchedUntil(Date.now() + 5_000, () => reading);
    advance(4_000, 1_000, 9);
    jest.advanceTimersByTime(5_000);
    advance(2_000, 500, 4); // after the window
    expect(sched.read()).toEqual({ runMicros: 4_000, waitMicros: 1_000, preemptions: 9 });
  });

  it('gives nothing where the scheduler cannot be read', () => {
    const sched = mainThreadSchedUntil(Date.now() + 5_000, () => undefined);
    jest.advanceTimersByTime(5_000);
    expect(sched.read()).toBeUndefined();
  });
});
