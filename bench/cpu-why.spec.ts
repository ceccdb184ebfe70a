import { cpuWhy, withCpuWhy } from './cpu-why';
import { sampleResult } from './report/fixtures';
import type { TargetCheck } from './target-check';

/** A round as the runner records it: its rate is the cores kept busy over the CPU per grant. */
const round = (strategy: string, microsPerGrant: number, coresBusy: number) =>
  sampleResult({
    strategy,
    grabsPerSec: (coresBusy * 1e6) / microsPerGrant,
    machineCpu: { microsPerGrant, coresBusy },
  });

const missed: TargetCheck = { target: 'redis-lua at workMs 0 ≥ 0.9 × db-atomic', measured: '0.70×', met: false };

describe('cpuWhy', () => {
  const lua = round('redis-lua', 1400, 1.5);
  const atomic = round('db-atomic', 1000, 1.6);

  it("splits a's rate over b's into the work per grant and the cores kept busy", () => {
    expect(cpuWhy(lua, atomic)).toBe(
      "the machine spent 1400 µs of CPU per grant up to the last grant, against db-atomic's 1000: " +
        'with the cores as busy as db-atomic kept them (1.60) that would allow 0.71×; redis-lua kept them 0.94× as busy (1.50)',
    );
  });

  it('says nothing without a CPU reading on either side', () => {
    expect(cpuWhy(sampleResult({ strategy: 'redis-lua' }), atomic)).toBeUndefined();
    expect(cpuWhy(lua, sampleResult({ strategy: 'db-atomic' }))).toBeUndefined();
    expect(cpuWhy(round('redis-lua', 0, 1.5), atomic)).toBeUndefined();
    expect(cpuWhy(lua, round('db-atomic', 1000, 0))).toBeUndefined();
  });
});

describe('withCpuWhy', () => {
  const lua = round('redis-lua', 1400, 1.5);
  const atomic = round('db-atomic', 1000, 1.6);

  it('gives a missed ratio its CPU reason', () => {
    expect(withCpuWhy(missed, lua, atomic).why).toBe(cpuWhy(lua, atomic));
  });

  it('leaves a met or unmeasured check, one with a reason already, or one without both rounds as it is', () => {
    const met = { ...missed, met: true };
    const unmeasured = { ...missed, met: undefined };
    const reasoned = { ...missed, why: 'another reason' };
    expect(withCpuWhy(met, lua, atomic)).toBe(met);
    expect(withCpuWhy(unmeasured, lua, atomic)).toBe(unmeasured);
    expect(withCpuWhy(reasoned, lua, atomic)).toBe(reasoned);
    expect(withCpuWhy(missed, undefined, atomic)).toBe(missed);
  });
});
