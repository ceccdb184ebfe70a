import type { StrategyResult } from '../types';
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

/** Correctness first, right next to the name, so a fast wrong strategy reads as wrong. */
export const columns: readonly Column[] = [
  { header: 'strategy', align: 'left', value: (r) => r.strategy },
  { header: 'verdict', align: 'left', value: (r) => r.verdict.label, alarming: (r) => !r.verdict.correct },
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
  { header: 'req/s', align: 'right', value: (r) => fixed(r.requestsPerSec) },
  { header: 'p50 ms', align: 'right', value: (r) => ms(r.latency.p50) },
  { header: 'p99 ms', align: 'right', value: (r) => ms(r.latency.p99) },
  { header: 'p99.9 ms', align: 'right', value: (r) => ms(r.latency.p999) },
  { header: '200', align: 'right', value: (r) => String(r.statuses.granted) },
  { header: 'sold out', align: 'right', value: (r) => String(r.statuses.soldOut) },
  { header: 'dup', align: 'right', value: (r) => String(r.statuses.duplicate) },
  { header: 'fence 409', align: 'right', value: (r) => String(r.statuses.fenceRejected) },
  { header: '429', align: 'right', value: (r) => String(r.statuses.lockTimeout) },
  {
    header: '5xx',
    align: 'right',
    value: (r) => String(r.statuses.serverError),
    alarming: (r) => r.statuses.serverError > 0,
  },
  {
    header: 'err',
    align: 'right',
    value: (r) => String(r.statuses.errors + r.statuses.timeouts + r.statuses.otherClientError),
    alarming: (r) => r.statuses.errors + r.statuses.timeouts + r.statuses.otherClientError > 0,
  },
  { header: 'util', align: 'right', value: (r) => fixed(r.utilisation.busyShare, 2) },
  {
    header: 'lock held',
    align: 'right',
    value: (r) => (r.utilisation.lockHeldShare === undefined ? '–' : fixed(r.utilisation.lockHeldShare, 2)),
  },
  { header: 'max ms', align: 'right', value: (r) => ms(r.fairness.maxLatencyMs) },
  {
    header: 'lock wait ms',
    align: 'right',
    value: (r) => (r.fairness.maxLockWaitMs === undefined ? '–' : ms(r.fairness.maxLockWaitMs)),
  },
  { header: 'spread ms', align: 'right', value: (r) => ms(r.fairness.spreadMs) },
  { header: 'reconciled', align: 'left', value: reconciled, alarming: (r) => !r.reconciliation.matches },
];
