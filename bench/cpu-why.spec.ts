import { cpuWhy, withCpuWhy, type CpuSide } from './cpu-why';
import type { TargetCheck } from './target-check';

const side = (name: string, microsEach: number, coresBusy: number): CpuSide => ({
  name,
  cpu: { microsEach, coresBusy },
});

const missed: TargetCheck = { target: 'redis-lua at workMs 0 ≥ 0.9 × db-atomic', measured: '0.70×', met: false };

describe('cpuWhy', () => {
  const lua = side('redis-lua', 1400, 1.5);
  const atomic = side('db-atomic', 1000, 1.6);

  it("splits a's rate over b's into the work per unit and the cores kept busy", () => {
    expect(cpuWhy('grant', lua, atomic)).toBe(
      'the machine spent 1400 µs of CPU per grant for redis-lua, against 1000 for db-atomic: with the cores as busy as db-atomic kept them (1.60) ' +
        'that would allow 0.71×; redis-lua kept them 0.94× as busy (1.50)',
    );
  });

  it('says nothing without a CPU reading on either side, or with one that read nothing', () => {
    expect(cpuWhy('grant', { name: 'redis-lua' }, atomic)).toBeUndefined();
    expect(cpuWhy('grant', lua, { name: 'db-atomic' })).toBeUndefined();
    expect(cpuWhy('grant', side('redis-lua', 0, 1.5), atomic)).toBeUndefined();
    expect(cpuWhy('grant', lua, side('db-atomic', 1000, 0))).toBeUndefined();
  });
});

describe('withCpuWhy', () => {
  const lua = side('redis-lua', 1400, 1.5);
  const atomic = side('db-atomic', 1000, 1.6);

  it('gives a missed ratio its CPU reason', () => {
    expect(withCpuWhy(missed, 'grant', lua, atomic).why).toBe(cpuWhy('grant', lua, atomic));
  });

  it('leaves a met or unmeasured check, one with a reason already, or one without both sides as it is', () => {
    const met = { ...missed, met: true };
    const unmeasured = { ...missed, met: undefined };
    const reasoned = { ...missed, why: 'another reason' };
    expect(withCpuWhy(met, 'grant', lua, atomic)).toBe(met);
    expect(withCpuWhy(unmeasured, 'grant', lua, atomic)).toBe(unmeasured);
    expect(withCpuWhy(reasoned, 'grant', lua, atomic)).toBe(reasoned);
    expect(withCpuWhy(missed, 'grant', undefined, atomic)).toBe(missed);
    expect(withCpuWhy(missed, 'grant', { name: 'redis-lua' }, atomic)).toBe(missed);
  });
});
