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
      "each grant took 1400 µs of the machine's CPU, db-atomic's 1000: with the cores as busy as db-atomic kept them (1.60) " +
        'that allows 0.71× at best; redis-lua kept them 0.94 as busy (1.50)',
    );
  });

  it('names factors whose product is the measured ratio', () => {
    const ratio = lua.grabsPerSec / atomic.grabsPerSec;
    expect((1000 / 1400) * (1.5 / 1.6)).toBeCloseTo(ratio, 10);
  });

  it('says nothing without a CPU reading on either side', () => {
    expect(cpuWhy(sampleResult({ strategy: 'redis-lua' }), atomic)).toBeUndefined();
    expect(cpuWhy(lua, sampleResult({ strategy: 'db-atomic' }))).toBeUndefined();
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
