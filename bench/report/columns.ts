import { ceilingLabel } from '../metrics/bound';
import type { Ceilings, CeilingValues, StrategyResult } from '../types';
import { fixed, ms } from './format';

export interface Column {
  readonly header: string;
  readonly align: 'left' | 'right';
  readonly value: (r: StrategyResult) => string;
  /** A cell that shows a correctness failure (so renderers can make it stand out). */
  readonly alarming?: (r: StrategyResult) => boolean;
}

const reconciled = (r: StrategyResult) =>
  r.reconciliation.matches ? 'yes' : `NO ${r.reconciliation.grantedSeen}≠${r.reconciliation.grantsInDb}`;
const pair = (a: number, b: number) => `${ms(a)} / ${ms(b)}`;
const other = (r: StrategyResult) => r.statuses.outsideContract + r.statuses.errors + r.statuses.timeouts;

/** The machine's CPU per grant, and the cores it kept busy, up to the last grant. */
export const machineCpuCell = (r: StrategyResult) =>
  r.machineCpu ? `${fixed(r.machineCpu.microsEach)} (${fixed(r.machineCpu.coresBusy, 2)} cores)` : '–';

/** Correctness first, right next to the name, so a fast wrong strategy reads as wrong. */
export const columns: readonly Column[] = [
  { header: 'strategy', align: 'left', value: (r) => r.strategy },
  { header: 'verdict', align: 'left', value: (r) => r.verdict.label, alarming: (r) => !r.verdict.correct },
  {
    header: 'as expected',
    align: 'left',
    value: (r) => (r.verdict.asExpected ? 'yes' : `NO (${r.verdict.expected.join(' + ') || 'correct'})`),
    alarming: (r) => !r.verdict.asExpected,
  },
  { header: 'oversold', align: 'right', value: (r) => String(r.audit.oversold), alarming: (r) => r.audit.oversold > 0 },
  {
    header: 'lost upd',
    align: 'right',
    value: (r) => String(r.audit.lostUpdates),
    alarming: (r) => r.audit.lostUpdates > 0,
  },
  {
    header: 'holders',
    align: 'right',
    value: (r) => String(r.audit.maxConcurrentHolders),
    alarming: (r) => r.verdict.flags.includes('TWO HOLDERS'),
  },
  { header: 'grabs/s', align: 'right', value: (r) => fixed(r.grabsPerSec) },
  { header: 'of ceiling', align: 'right', value: (r) => `${fixed(r.bound.share, 2)} ${ceilingLabel[r.bound.ceiling]}` },
  { header: 'granted p50/p99 ms', align: 'right', value: (r) => pair(r.latency.granted.p50, r.latency.granted.p99) },
  {
    header: 'turned away p50/p99 ms',
    align: 'right',
    value: (r) => pair(r.latency.turnedAway.p50, r.latency.turnedAway.p99),
  },
  { header: 'sold-out/s', align: 'right', value: (r) => (r.soldOut ? fixed(r.soldOut.perSec) : '–') },
  { header: '200', align: 'right', value: (r) => String(r.statuses.granted) },
  {
    header: '409',
    align: 'right',
    value: (r) => String(r.statuses.soldOut + r.statuses.duplicate + r.statuses.fenceRejected),
  },
  { header: '429', align: 'right', value: (r) => String(r.statuses.lockTimeout) },
  { header: '503', align: 'right', value: (r) => String(r.statuses.unavailable) },
  { header: 'other', align: 'right', value: (r) => String(other(r)), alarming: (r) => other(r) > 0 },
  { header: 'util', align: 'right', value: (r) => fixed(r.utilisation.busyShare, 2) },
  {
    header: 'lock held',
    align: 'right',
    value: (r) => (r.utilisation.lockHeldShare === undefined ? '–' : fixed(r.utilisation.lockHeldShare, 2)),
  },
  { header: 'machine CPU µs/grant', align: 'right', value: (r) => machineCpuCell(r) },
  { header: 'reconciled', align: 'left', value: reconciled, alarming: (r) => !r.reconciliation.matches },
];

/** The ceilings, one line. */
export function ceilingsLine(c: CeilingValues & Pick<Ceilings, 'sectionAlone'>): string {
  const alone = (c.sectionAlone ?? []).map(
    (b) => `, section alone utilisation ${fixed(b.busyShare, 3)} at workMs ${b.workMs}`,
  );
  const httpCpu = c.httpCpu ? `, http ${fixed(c.httpCpu.microsEach)} µs of machine CPU per request` : '';
  return `ceilings: http ${fixed(c.httpPerSec)}/s, pg hot row ${fixed(c.pgHotRowPerSec)}/s, redis ${fixed(c.redisPerSec)}/s${alone.join('')}${httpCpu}`;
}
