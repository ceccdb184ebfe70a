import { sampleLockResult as result } from './lock-fixtures';
import { coresBusyLine, costsEach, cpuAgainst, cpuCell, formatCpu } from './render-cpu';
import { sectionCeiling } from './section-ceiling';

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
});
