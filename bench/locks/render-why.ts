import type { LockBenchResult } from './aggregate';
import { cpuAgainst, waitedForCpu } from './render-cpu';
import { fastestNoLock, type LockCeilings } from './no-lock-bound';

/**
 * A missed ratio measured against the ceiling that bounds the lock: the fastest the section ran
 * with no lock (`fastestNoLock`) for any lock; the section passed from process to process for
 * ours, which serves the processes in turn (one grant each without local hand-off, a run of them
 * with it). Says whether the target lies above it (out of reach) or below (a real miss).
 */
export function whyMissed(ceilings: LockCeilings, result: LockBenchResult, wanted: number, target: string): string {
  const section = ceilings.ceiling?.sectionPerSec;
  const share = (bound: number) =>
    `${result.contender} ran at ${(result.grantsPerSec / bound).toFixed(2)} of that ceiling`;
  const fastest = fastestNoLock(ceilings);
  if (fastest && wanted > fastest.perSec) {
    const above = `${fastest.perSec.toFixed(0)}/s (${fastest.label})`;
    return `. Why: ${target} is ${wanted.toFixed(0)} grants/s, above every reading of the section with no lock at all in this run (the fastest: ${above}): out of reach for any lock here; ${share(fastest.perSec)}`;
  }
  const ring = ringBound(ceilings, result);
  if (ring) {
    const of = `${ring.perSec.toFixed(0)} ${ring.unit} of the section passed from process to process${ring.how} with no lock`;
    return wanted > ring.perSec
      ? `. Why: ${target} is ${wanted.toFixed(0)} grants/s, above the ${of}: a lock serving the processes in turn${ring.each} cannot reach it; ${share(ring.perSec)}`
      : `. Not out of reach: ${target} is ${wanted.toFixed(0)} grants/s, below the ${of}; ${share(ring.perSec)}, so the rest is the lock's own cost${cpuAgainst(result, ring.cpu, ring.cpuUnit)}${waitedForCpu(result, ring.wait, ring.waitUnit)}`;
  }
  // Below the section alone, said only with the CPU figures that tell the lock's cost from the
  // section's, and only while no ring beat the section alone (the shares are of the fastest).
  const against = cpuAgainst(result, ceilings.ceiling?.cpuMicrosPerSection, 'section alone');
  if (section === undefined || fastest?.how !== 'alone' || servesInTurn(result) || !against) return '';
  return `. Below the ceiling: ${target} is ${wanted.toFixed(0)} grants/s, under the section's own ${section.toFixed(0)}/s with no lock; ${share(section)}${against}${waitedForCpu(result)}`;
}

/**
 * The ring that bounds one of ours: one section per turn without local hand-off, its longest run
 * in a row per turn with it. Undefined for ours with hand-off in a report from before the run
 * ceiling, which then falls through to the section-alone clause, as it did.
 */
function ringBound({ turnCeiling: turns, runCeiling: runs }: LockCeilings, result: LockBenchResult) {
  if (servesInTurn(result)) {
    if (!turns) return undefined;
    return {
      perSec: turns.turnsPerSec,
      unit: 'turns/s',
      how: '',
      each: '',
      cpu: turns.cpuMicrosPerTurn,
      cpuUnit: 'turn of that ring',
      wait: turns.cpuWait,
      waitUnit: 'turn',
    };
  }
  // The earlier wake-all path lets a process win the lock again after its run: no ring bounds it.
  if (!result.ours || result.contender.endsWith(':pubsub') || !runs) return undefined;
  return {
    perSec: runs.sectionPerSec,
    unit: 'sections/s',
    how: ` in runs of ${runs.sectionsPerTurn}`,
    each: `, ${runs.sectionsPerTurn} grants each,`,
    cpu: runs.cpuMicrosPerSection,
    cpuUnit: 'section of that ring',
    wait: runs.cpuWait,
    waitUnit: 'section',
  };
}

/** Ours without local hand-off: every grant goes through the Redis queue, one process after another. */
function servesInTurn(result: LockBenchResult): boolean {
  return result.ours && result.contender.endsWith(':no-local-handoff');
}
