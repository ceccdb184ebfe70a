import { ceilingLabel } from '../metrics/bound';
import type { Ceilings, LoadResult, StrategyResult } from '../types';
import { fixed, ms } from './format';
import type { Grid } from './grid';

export interface Column {
  readonly header: string;
  readonly align: 'left' | 'right';
  readonly value: (r: StrategyResult) => string;
  /** A cell that shows a correctness failure (so renderers can make it stand out). */
  readonly alarming?: (r: StrategyResult) => boolean;
}

const other = (r: StrategyResult) => r.statuses.outsideContract + r.statuses.errors + r.statuses.timeouts;

/** The verdict, and what was expected when it differs. */
const verdictCell = (r: StrategyResult) =>
  r.verdict.asExpected
    ? r.verdict.label
    : `${r.verdict.label} (expected ${r.verdict.expected.join(' + ') || 'correct'})`;

/** The terminal's columns: correctness first, right after the name, so a fast wrong strategy reads as wrong. */
export const summaryColumns: readonly Column[] = [
  { header: 'strategy', align: 'left', value: (r) => r.strategy },
  {
    header: 'verdict',
    align: 'left',
    value: verdictCell,
    alarming: (r) => !r.verdict.correct || !r.verdict.asExpected,
  },
  { header: 'grabs/s', align: 'right', value: (r) => fixed(r.grabsPerSec) },
  { header: 'granted p99 ms', align: 'right', value: (r) => ms(r.latency.granted.p99) },
  { header: 'of ceiling', align: 'right', value: (r) => `${fixed(r.bound.share, 2)} ${ceilingLabel[r.bound.ceiling]}` },
];

/** The reports' columns: the summary, then the audit, the answers, the sections and the CPU. */
export const columns: readonly Column[] = [
  ...summaryColumns,
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
  {
    header: 'commits per grant',
    align: 'right',
    value: (r) => (r.commits !== undefined && r.audit.grants > 0 ? fixed(r.commits / r.audit.grants, 2) : '–'),
  },
  { header: 'granted p50 ms', align: 'right', value: (r) => ms(r.latency.granted.p50) },
  {
    header: 'accept→durable p50/p99 ms',
    align: 'right',
    value: (r) => (r.acceptToDurable ? `${ms(r.acceptToDurable.p50)}/${ms(r.acceptToDurable.p99)}` : '–'),
  },
  { header: 'turned away p99 ms', align: 'right', value: (r) => ms(r.latency.turnedAway.p99) },
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
  { header: 'hand-off ms', align: 'right', value: (r) => fixed(r.utilisation.meanGapMs, 1) },
  { header: 'CPU µs/grant', align: 'right', value: (r) => (r.machineCpu ? fixed(r.machineCpu.microsEach) : '–') },
  {
    header: 'reconciled',
    align: 'left',
    value: (r) =>
      r.reconciliation.matches ? 'yes' : `NO ${r.reconciliation.grantedSeen}≠${r.reconciliation.grantsInDb}`,
    alarming: (r) => !r.reconciliation.matches,
  },
];

/** The ceilings, one line. */
export function ceilingsLine(c: Ceilings): string {
  const bare = c.bareHttpPerSec === undefined ? '' : ` (bare node:http ${fixed(c.bareHttpPerSec)}/s)`;
  return `ceilings: http ${fixed(c.httpPerSec)}/s${bare}, pg hot row ${fixed(c.pgHotRowPerSec)}/s, redis ${fixed(c.redisPerSec)}/s`;
}

/** A load's rows under `cols`, for the one table renderer. */
export function loadGrid(load: LoadResult, cols: readonly Column[]): Grid {
  return {
    header: cols.map((c) => c.header),
    align: cols.map((c) => c.align),
    rows: load.results.map((r) => cols.map((c) => c.value(r))),
    alarming: (row, i) => cols[i].alarming?.(load.results[row]) ?? false,
  };
}
