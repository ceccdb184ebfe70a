import { machineCpuPerGrant, parseBusyMs, type BusySample } from './machine-cpu';
import { emptyStatusCounts } from './verdict';

describe('parseBusyMs', () => {
  it('adds user, nice, system, irq and softirq of every core, in ms, leaving idle, iowait and steal out', () => {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const stat = 'cpu  100 2 30 9000 7 1 20 500 40 3\ncpu0 50 1 15 4500 3 0 10 250 20 1\n';
    expect(parseBusyMs(stat)).toBe((100 + 2 + 30 + 1 + 20) * 10);
  });

  it('reads nothing from text that is not /proc/stat', () => {
    expect(parseBusyMs('intr 1 2 3\n')).toBeUndefined();
    expect(parseBusyMs('cpu  a b c\n')).toBeUndefined();
  });
});

/** `granted` grants over `[from, from + spanMs]`. */
const machineCpuOver = (samples: BusySample[], from: number, spanMs: number, granted: number) =>
  machineCpuPerGrant(samples, { startedAt: from, lastGrantAfterMs: spanMs, statuses: { granted } });

describe('machineCpuPerGrant over a span', () => {
  // 1 core busy from t=1000 to t=1100, then 2 cores to t=1200.
  const samples: BusySample[] = [
    { at: 1000, busyMs: 5000 },
    { at: 1100, busyMs: 5100 },
    { at: 1200, busyMs: 5300 },
  ];

  it('takes the span between sampled instants, per grant and as cores kept busy', () => {
    expect(machineCpuOver(samples, 1000, 200, 100)).toEqual({ microsEach: 3000, coresBusy: 1.5 });
  });

  it('reads an instant between two samples on the line between them', () => {
    // 75 ms at 1 core from 1025, then 75 ms at 2 cores to 1175.
    const cpu = machineCpuOver(samples, 1025, 150, 10)!;
    expect(cpu.coresBusy).toBeCloseTo(225 / 150, 10);
    expect(cpu.microsEach).toBeCloseTo(22_500, 6);
    expect(machineCpuOver(samples, 1010, 10, 1)!.coresBusy).toBeCloseTo(1, 10);
    expect(machineCpuOver(samples, 1180, 10, 1)!.coresBusy).toBeCloseTo(2, 10);
  });

  it('gives nothing for a span the samples do not cover, or with no grants', () => {
    expect(machineCpuOver(samples, 990, 100, 10)).toBeUndefined();
    expect(machineCpuOver(samples, 1100, 101, 10)).toBeUndefined();
    expect(machineCpuOver(samples, 1000, 100, 0)).toBeUndefined();
    expect(machineCpuOver([], 1000, 100, 10)).toBeUndefined();
  });
});

describe('machineCpuPerGrant', () => {
  it("takes a round's span from its start to its last grant, per grant, not per answer", () => {
    const samples: BusySample[] = [
      { at: 1000, busyMs: 0 },
      { at: 3000, busyMs: 4000 },
    ];
    const round = { startedAt: 1000, lastGrantAfterMs: 500, statuses: { ...emptyStatusCounts(), granted: 4 } };
    expect(machineCpuPerGrant(samples, round)).toEqual({ microsEach: 250_000, coresBusy: 2 });
  });
});
