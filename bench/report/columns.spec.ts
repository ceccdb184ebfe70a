import type { StrategyResult } from '../types';
import { ceilingsLine, columns } from './columns';
import { sampleResult, sampleSoldOut, sampleStatuses, sampleVerdict } from './fixtures';

const cell = (header: string, r: StrategyResult) => {
  const column = columns.find((c) => c.header === header);
  if (!column) throw new Error(`no column ${header}`);
  return { text: column.value(r), alarming: column.alarming?.(r) ?? false };
};

describe('columns', () => {
  it('puts correctness first, right after the name', () => {
    expect(columns.slice(0, 3).map((c) => c.header)).toEqual(['strategy', 'verdict', 'as expected']);
  });

  it('says whether the verdict is the expected one, and what was expected when not', () => {
    const baseline = sampleResult({ strategy: 'none', verdict: sampleVerdict(['OVERSOLD', 'LOST UPDATES']) });
    expect(cell('as expected', baseline)).toEqual({ text: 'yes', alarming: false });
    expect(cell('verdict', baseline)).toEqual({ text: 'OVERSOLD + LOST UPDATES', alarming: true });
    const cameOutCorrect = sampleResult({ strategy: 'none', verdict: sampleVerdict([], ['OVERSOLD', 'LOST UPDATES']) });
    expect(cell('as expected', cameOutCorrect)).toEqual({ text: 'NO (OVERSOLD + LOST UPDATES)', alarming: true });
    const undersold = sampleResult({ strategy: 'owner-checked', verdict: sampleVerdict(['UNDERSOLD'], []) });
    expect(cell('as expected', undersold)).toEqual({ text: 'NO (correct)', alarming: true });
  });

  it('shows grabs/s as a share of the ceiling that bounds it', () => {
    const r = sampleResult({
      strategy: 'db-atomic',
      grabsPerSec: 1184,
      bound: { ceiling: 'pgHotRowPerSec', perSec: 1480, share: 0.8 },
    });
    expect(cell('of ceiling', r).text).toBe('0.80 pg hot row');
    expect(cell('of ceiling', { ...r, bound: { ceiling: 'redisPerSec', perSec: 1, share: 1.234 } }).text).toBe(
      '1.23 redis',
    );
  });

  it('splits granted from turned-away latency', () => {
    const r = sampleResult({ strategy: 'x' });
    expect(cell('granted p50/p99 ms', r).text).toBe('14.5 / 91.0');
    expect(cell('turned away p50/p99 ms', r).text).toBe('3.2 / 9.5');
  });

  it('shows the sold-out rate when the round sold out, a dash when not', () => {
    expect(cell('sold-out/s', sampleResult({ strategy: 'x', soldOut: sampleSoldOut(2718.4) })).text).toBe('2718');
    expect(cell('sold-out/s', sampleResult({ strategy: 'x', soldOut: undefined })).text).toBe('–');
  });

  it('sorts the answers by meaning: 409s together, and out-of-contract answers or none in "other"', () => {
    const r = sampleResult({
      strategy: 'x',
      statuses: sampleStatuses({
        granted: 400,
        soldOut: 300,
        duplicate: 20,
        fenceRejected: 3,
        lockTimeout: 40,
        unavailable: 5,
        outsideContract: 1,
        errors: 2,
        timeouts: 4,
      }),
    });
    expect(['200', '409', '429', '503', 'other'].map((h) => cell(h, r).text)).toEqual(['400', '323', '40', '5', '7']);
    expect(cell('other', r).alarming).toBe(true);
    expect(cell('other', sampleResult({ strategy: 'x' }))).toEqual({ text: '0', alarming: false });
  });

  it('shows the lock held share only when the replicas reported it', () => {
    const r = sampleResult({ strategy: 'x' });
    expect(cell('lock held', r).text).toBe('–');
    expect(cell('lock held', { ...r, utilisation: { ...r.utilisation, lockHeldShare: 0.937 } }).text).toBe('0.94');
  });

  it('marks holders only when two holders is a flag of the verdict', () => {
    const exact = sampleResult({ strategy: 'segmented' });
    const overlapping = { ...exact, audit: { ...exact.audit, maxConcurrentHolders: 8 } };
    expect(cell('holders', overlapping)).toEqual({ text: '8', alarming: false });
    expect(cell('holders', { ...overlapping, verdict: sampleVerdict(['TWO HOLDERS'], []) }).alarming).toBe(true);
  });
});

describe('ceilingsLine', () => {
  it('prints the three ceilings, rounded', () => {
    expect(ceilingsLine({ httpPerSec: 4210.4, pgHotRowPerSec: 1479.6, redisPerSec: 9350 })).toBe(
      'ceilings: http 4210/s, pg hot row 1480/s, redis 9350/s',
    );
  });

  it("adds the http ceiling's machine CPU per request, when the run read it", () => {
    const httpCpu = { microsEach: 451.4, coresBusy: 1.9 };
    expect(ceilingsLine({ httpPerSec: 4210.4, pgHotRowPerSec: 1479.6, redisPerSec: 9350, httpCpu })).toBe(
      'ceilings: http 4210/s, pg hot row 1480/s, redis 9350/s, http 451 µs of machine CPU per request',
    );
  });

  it('adds the section alone at each load with work, when the run measured it', () => {
    const sectionAlone = [{ workMs: 5, busyShare: 0.8567, readings: [0.85, 0.8567] }];
    expect(ceilingsLine({ httpPerSec: 1, pgHotRowPerSec: 2, redisPerSec: 3, sectionAlone })).toBe(
      'ceilings: http 1/s, pg hot row 2/s, redis 3/s, section alone utilisation 0.857 at workMs 5',
    );
  });
});
