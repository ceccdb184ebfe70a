import { machineCpuOver, parseBusyMs, sampleMachineCpu, type BusySample } from './machine-cpu';

describe('parseBusyMs', () => {
  it('adds user, nice, system, irq and softirq of every core, in ms, leaving idle, iowait and steal out', () => {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const stat = 'cpu  100 2 30 9000 7 1 20 500 0 0\ncpu0 50 1 15 4500 3 0 10 250 0 0\n';
    expect(parseBusyMs(stat)).toBe((100 + 2 + 30 + 1 + 20) * 10);
  });

  it('reads nothing from text that is not /proc/stat', () => {
    expect(parseBusyMs('intr 1 2 3\n')).toBeUndefined();
    expect(parseBusyMs('cpu  a b c\n')).toBeUndefined();
  });
});

describe('machineCpuOver', () => {
  // 1 core busy from t=1000 to t=1100, then 2 cores to t=1200.
  const samples: BusySample[] = [
    { at: 1000, busyMs: 5000 },
    { at: 1100, busyMs: 5100 },
    { at: 1200, busyMs: 5300 },
  ];

  it('takes the span between sampled instants, per grant and as cores kept busy', () => {
    expect(machineCpuOver(samples, 1000, 200, 100)).toEqual({ microsPerGrant: 3000, coresBusy: 1.5 });
  });

  it('reads an instant between two samples on the line between them', () => {
    const cpu = machineCpuOver(samples, 1050, 100, 10)!;
    expect(cpu.coresBusy).toBeCloseTo(1.5); // 50 ms at 1 core, 50 ms at 2
    expect(cpu.microsPerGrant).toBeCloseTo(15_000);
  });

  it('gives nothing for a span the samples do not cover, or with no grants', () => {
    expect(machineCpuOver(samples, 990, 100, 10)).toBeUndefined();
    expect(machineCpuOver(samples, 1100, 101, 10)).toBeUndefined();
    expect(machineCpuOver(samples, 1000, 100, 0)).toBeUndefined();
    expect(machineCpuOver([], 1000, 100, 10)).toBeUndefined();
  });
});

describe('sampleMachineCpu', () => {
  const linux = process.platform === 'linux' ? it : it.skip;

  linux('sees this process keep a core busy', () => {
    const sampler = sampleMachineCpu();
    const ours = process.cpuUsage();
    const until = Date.now() + 300;
    while (Date.now() < until); // a core busy, on this thread
    const oursMs = process.cpuUsage(ours);
    const samples = sampler.stop();
    expect(samples.length).toBeGreaterThanOrEqual(2);
    const seenMs = samples[samples.length - 1].busyMs - samples[0].busyMs;
    // The machine's count includes ours (10 ms ticks on both sides).
    expect(seenMs).toBeGreaterThanOrEqual((oursMs.user + oursMs.system) / 1000 - 30);
  });
});
