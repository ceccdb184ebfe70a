import { sampleLockResult as result } from './lock-fixtures';
import { coresBusyLine, costsEach, cpuAgainst, cpuCell, cpuWaitLine, formatCpu, waitedForCpu } from './render-cpu';
import { sectionCeiling } from './section-ceiling';
import { runCeiling, turnCeiling } from './turn-ceiling';

const cost = { node: 900.4, redis: 180 };

describe('CPU in the lock reports', () => {
  it('writes a cost as its total, then Node and Redis apart, and a dash where none was measured', () => {
    expect(formatCpu(cost)).toBe('1080 µs (900 Node + 180 Redis)');
    expect(cpuCell(cost)).toBe('1080 (900+180)');
    expect(cpuCell(undefined)).toBe('–');
    expect(costsEach(cost)).toBe(', CPU 1080 µs (900 Node + 180 Redis) each');
    expect(costsEach(undefined)).toBe('');
  });

  it("sets a lock's cost against a ceiling's only when both were measured", () => {
    const measured = result('owner-checked', true, 2000, { cpuMicrosPerGrant: cost });
    expect(cpuAgainst(measured, { node: 60, redis: 40 }, 'section alone')).toBe(
      '; it spent 1080 µs (900 Node + 180 Redis) of CPU per grant, against 100 µs (60 Node + 40 Redis) per section alone',
    );
    expect(cpuAgainst(measured, undefined, 'section alone')).toBe('');
    expect(cpuAgainst(result('owner-checked', true, 2000), cost, 'section alone')).toBe('');
  });

  it('gives the cores each measured row kept busy, and nothing for a run that measured none', () => {
    const rows = [
      result('owner-checked', true, 1000, { cpuMicrosPerGrant: { node: 700, redis: 100 } }),
      result('redlock', false, 3000),
    ];
    const section = { ...sectionCeiling([10000]), cpuMicrosPerSection: { node: 70, redis: 30 } };
    expect(coresBusyLine(rows, { section }, 2)).toBe(
      'cores kept busy (rate × CPU per grant, of 2): owner-checked 0.80, the section alone 1.00',
    );
    expect(coresBusyLine([result('redlock', false, 3000)], { section }, 2)).toBeUndefined();
  });

  it("gives how long each measured row's event loops waited for a CPU, with the rings', and nothing for a run that read none", () => {
    const rows = [
      result('owner-checked', true, 1000, { cpuWait: { share: 0.284, preemptionsPerGrant: 1.1 } }),
      result('redlock', false, 3000),
      result('redis-semaphore', false, 2000, { cpuWait: { share: 0.3, preemptionsPerGrant: 2.456 } }),
    ];
    const turns = { ...turnCeiling([4000]), cpuWait: { share: 0.05, preemptionsPerGrant: 0.5 } };
    const runs = runCeiling(17, [8000]);
    expect(cpuWaitLine(rows, { turns, runs })).toBe(
      "event loops waiting for a CPU (main threads' run-queue time as a share of their ready time, then preemptions; Linux schedstat): owner-checked 28% (1.10 per grant), redis-semaphore 30% (2.46 per grant), the ring 5% (0.50 per turn)",
    );
    expect(cpuWaitLine([result('redlock', false, 3000)], { turns, runs })).toBeUndefined();
  });

  it("sets a lock's CPU wait beside its ring's when both were read", () => {
    const measured = result('owner-checked', true, 2000, { cpuWait: { share: 0.25, preemptionsPerGrant: 1.5 } });
    const ring = { share: 0.1, preemptionsPerGrant: 0.25 };
    expect(waitedForCpu(measured, ring)).toBe(
      "; its event loops waited for a CPU 25% of the time they were ready to run (preempted 1.50 times per grant), the ring's 10% (0.25 per section)",
    );
    expect(waitedForCpu(measured, ring, 'turn')).toContain("the ring's 10% (0.25 per turn)");
    expect(waitedForCpu(measured)).toBe(
      '; its event loops waited for a CPU 25% of the time they were ready to run (preempted 1.50 times per grant)',
    );
    expect(waitedForCpu(result('owner-checked', true, 2000), ring)).toBe('');
  });
});
