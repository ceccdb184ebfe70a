import type { Ceilings, LoadResult, StrategyResult } from '../types';
import { titles } from './evidence';
import { fixed, ms } from '../../tools/report/format';
import type { Grid } from '../../tools/report/table';

export interface Column {
  readonly header: string;
  readonly align: 'left' | 'right';
  readonly value: (r: StrategyResult) => string;
  /** A cell that shows a correctness failure. */
  readonly alarming?: (r: StrategyResult) => boolean;
}

/** 1 for a statement per grant, below 1 when a commit carries many grants. */
export const commitsPerGrant = (r: StrategyResult) =>
  r.commits !== undefined && r.audit.grants > 0 ? r.commits / r.audit.grants : undefined;

const ceilingLabel = { httpPerSec: 'http', pgHotRowPerSec: 'pg hot row', redisPerSec: 'redis' } as const;

const figure = (header: string, value: Column['value']): Column => ({ header, align: 'right', value });
/** A count; when `alarm`, alarming above 0. */
const count = (header: string, value: (r: StrategyResult) => number, alarm = false): Column => ({
  ...figure(header, (r) => String(value(r))),
  ...(alarm && { alarming: (r: StrategyResult) => value(r) > 0 }),
});

/** The terminal's columns: correctness first, right after the name, so a fast wrong strategy reads as wrong. */
export const summaryColumns: readonly Column[] = [
  { header: 'strategy', align: 'left', value: (r) => r.strategy },
  {
    header: 'verdict',
    align: 'left',
    value: ({ verdict: v }) =>
      v.asExpected ? v.label : `${v.label} (expected ${v.expected.join(' + ') || 'correct'})`,
    alarming: (r) => !r.verdict.correct || !r.verdict.asExpected,
  },
  figure('grabs/s', (r) => fixed(r.grabsPerSec)),
  figure('granted p99 ms', (r) => ms(r.latency.granted?.p99)),
  figure('of ceiling', (r) => `${fixed(r.bound.share, 2)} ${ceilingLabel[r.bound.ceiling]}`),
];

/** The reports' columns: the summary, then the audit, the answers, the sections and the CPU. */
export const columns: readonly Column[] = [
  ...summaryColumns,
  count('oversold', (r) => r.audit.oversold, true),
  count('lost upd', (r) => r.audit.lostUpdates, true),
  {
    ...count('holders', (r) => r.audit.maxConcurrentHolders),
    alarming: (r) => r.verdict.flags.includes('TWO HOLDERS'),
  },
  figure('commits per grant', (r) => fixed(commitsPerGrant(r) ?? NaN, 2)),
  figure('granted p50 ms', (r) => ms(r.latency.granted?.p50)),
  figure('accept→durable p50/p99 ms', ({ acceptToDurable: d }) => (d ? `${ms(d.p50)}/${ms(d.p99)}` : '–')),
  figure('turned away p99 ms', (r) => ms(r.latency.turnedAway?.p99)),
  figure(titles.soldOutColumn, (r) => (r.soldOut ? fixed(r.soldOut.perSec) : '–')),
  count('200', (r) => r.statuses.granted),
  count('409', ({ statuses: s }) => s.soldOut + s.duplicate + s.fenceRejected),
  count('429', (r) => r.statuses.lockTimeout),
  count('503', (r) => r.statuses.unavailable),
  count('other', ({ statuses: s }) => s.outsideContract + s.errors + s.timeouts, true),
  figure('hand-off ms', (r) => fixed(r.utilisation.meanGapMs, 1)),
  figure('CPU µs/request', (r) => (r.cpuMicrosPerRequest === undefined ? '–' : fixed(r.cpuMicrosPerRequest))),
  {
    header: 'reconciled',
    align: 'left',
    value: ({ reconciliation: c }) => (c.matches ? 'yes' : `NO ${c.grantedSeen}≠${c.grantsInDb}`),
    alarming: (r) => !r.reconciliation.matches,
  },
];

export function ceilingsLine(c: Ceilings): string {
  return `ceilings: http ${fixed(c.httpPerSec)}/s, pg hot row ${fixed(c.pgHotRowPerSec)}/s, redis ${fixed(c.redisPerSec)}/s`;
}

/** A load's rows under `cols`, for the one table renderer. */
export const loadGrid = (load: LoadResult, cols: readonly Column[]): Grid => ({
  header: cols.map((c) => c.header),
  align: cols.map((c) => c.align),
  rows: load.results.map((r) => cols.map((c) => c.value(r))),
  alarming: (row, i) => cols[i].alarming?.(load.results[row]) ?? false,
});
