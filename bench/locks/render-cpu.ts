import type { LockBenchResult } from './aggregate';
import { coresBusy, totalMicros, type CpuCost } from './cpu-cost';
import type { SectionCeiling } from './section-ceiling';
import type { CpuWait } from './sched-probe';
import type { RunCeiling, TurnCeiling } from './turn-ceiling';

/** A cost in a sentence: the total, then Node and Redis apart, in µs. */
export function formatCpu(cost: CpuCost): string {
  return `${totalMicros(cost).toFixed(0)} µs (${cost.node.toFixed(0)} Node + ${cost.redis.toFixed(0)} Redis)`;
}

/** A cost as a table cell: the total, then Node and Redis apart ('–' for a run that did not measure it). */
export function cpuCell(cost: CpuCost | undefined): string {
  return cost ? `${totalMicros(cost).toFixed(0)} (${cost.node.toFixed(0)}+${cost.redis.toFixed(0)})` : '–';
}

/** ', CPU … each' after a ceiling's rate, when its cost was measured. */
export function costsEach(cost: CpuCost | undefined): string {
  return cost ? `, CPU ${formatCpu(cost)} each` : '';
}

/** '; it spent … of CPU per grant, against … per `unit`' when the lock's and the ceiling's were measured, else ''. */
export function cpuAgainst(result: LockBenchResult, cost: CpuCost | undefined, unit: string): string {
  const own = result.cpuMicrosPerGrant;
  return own && cost ? `; it spent ${formatCpu(own)} of CPU per grant, against ${formatCpu(cost)} per ${unit}` : '';
}

/**
 * How many of the machine's cores each row kept busy (rate × CPU per grant). Rows alike in it
 * rank by their CPU per grant; a row far below the others spent its time waiting (retry sleeps,
 * wake-ups), not working. Undefined when no row was measured.
 */
export function coresBusyLine(
  results: readonly LockBenchResult[],
  ceilings: {
    readonly section?: SectionCeiling;
    readonly turns?: TurnCeiling;
    readonly handoff?: TurnCeiling;
    readonly runs?: RunCeiling;
  },
  cpus: number,
): string | undefined {
  const rows = results.flatMap((r) =>
    r.cpuMicrosPerGrant ? [`${r.contender} ${coresBusy(r.grantsPerSec, r.cpuMicrosPerGrant).toFixed(2)}`] : [],
  );
  if (rows.length === 0) return undefined;
  const { section, turns, handoff, runs } = ceilings;
  if (section?.cpuMicrosPerSection)
    rows.push(`the section alone ${coresBusy(section.sectionPerSec, section.cpuMicrosPerSection).toFixed(2)}`);
  if (turns?.cpuMicrosPerTurn) rows.push(`the ring ${coresBusy(turns.turnsPerSec, turns.cpuMicrosPerTurn).toFixed(2)}`);
  if (handoff?.cpuMicrosPerTurn)
    rows.push(`the hand-off ring ${coresBusy(handoff.turnsPerSec, handoff.cpuMicrosPerTurn).toFixed(2)}`);
  if (runs?.cpuMicrosPerSection)
    rows.push(`the ring in runs ${coresBusy(runs.sectionPerSec, runs.cpuMicrosPerSection).toFixed(2)}`);
  return `cores kept busy (rate × CPU per grant, of ${cpus}): ${rows.join(', ')}`;
}

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

/**
 * '; its event loops waited for a CPU …' when the row's scheduler figures were read (with the
 * bounding ring's, when that was read too), else ''.
 */
export function waitedForCpu(result: LockBenchResult, ring?: CpuWait, ringUnit = 'section'): string {
  const wait = result.cpuWait;
  if (!wait) return '';
  const against = ring
    ? `, the ring's ${percent(ring.share)} (${ring.preemptionsPerGrant.toFixed(2)} per ${ringUnit})`
    : '';
  return `; its event loops waited for a CPU ${percent(wait.share)} of the time they were ready to run (preempted ${wait.preemptionsPerGrant.toFixed(2)} times per grant)${against}`;
}

/**
 * How long each row's event loops waited for a CPU while ready to run (on two cores a busy
 * process and Redis can want the same core), the rings' beside them. Undefined when no row was
 * measured (not Linux, or an earlier run).
 */
export function cpuWaitLine(
  results: readonly LockBenchResult[],
  rings: { readonly turns?: TurnCeiling; readonly handoff?: TurnCeiling; readonly runs?: RunCeiling },
): string | undefined {
  const row = (name: string, wait: CpuWait | undefined, unit: string) =>
    wait ? [`${name} ${percent(wait.share)} (${wait.preemptionsPerGrant.toFixed(2)} per ${unit})`] : [];
  const rows = results.flatMap((r) => row(r.contender, r.cpuWait, 'grant'));
  if (rows.length === 0) return undefined;
  rows.push(
    ...row('the ring', rings.turns?.cpuWait, 'turn'),
    ...row('the hand-off ring', rings.handoff?.cpuWait, 'turn'),
    ...row('the ring in runs', rings.runs?.cpuWait, 'section'),
  );
  return `event loops waiting for a CPU (main threads' run-queue time as a share of their ready time, then preemptions; Linux schedstat): ${rows.join(', ')}`;
}
