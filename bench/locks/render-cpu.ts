import type { LockBenchResult } from './aggregate';
import { coresBusy, totalMicros, type CpuCost } from './cpu-cost';
import type { SectionCeiling } from './section-ceiling';
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
  ceilings: { readonly section?: SectionCeiling; readonly turns?: TurnCeiling; readonly runs?: RunCeiling },
  cpus: number,
): string | undefined {
  const rows = results.flatMap((r) =>
    r.cpuMicrosPerGrant ? [`${r.contender} ${coresBusy(r.grantsPerSec, r.cpuMicrosPerGrant).toFixed(2)}`] : [],
  );
  if (rows.length === 0) return undefined;
  const { section, turns, runs } = ceilings;
  if (section?.cpuMicrosPerSection)
    rows.push(`the section alone ${coresBusy(section.sectionPerSec, section.cpuMicrosPerSection).toFixed(2)}`);
  if (turns?.cpuMicrosPerTurn) rows.push(`the ring ${coresBusy(turns.turnsPerSec, turns.cpuMicrosPerTurn).toFixed(2)}`);
  if (runs?.cpuMicrosPerSection)
    rows.push(`the ring in runs ${coresBusy(runs.sectionPerSec, runs.cpuMicrosPerSection).toFixed(2)}`);
  return `cores kept busy (rate × CPU per grant, of ${cpus}): ${rows.join(', ')}`;
}
