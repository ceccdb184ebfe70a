import type { SectionCeiling } from './section-ceiling';
import type { RunCeiling, TurnCeiling } from './turn-ceiling';

/** The ceilings of one run, as the report keeps them. */
export interface LockCeilings {
  readonly ceiling?: SectionCeiling;
  readonly turnCeiling?: TurnCeiling;
  readonly runCeiling?: RunCeiling;
  /** The turn ring making a claim-lease hand-off's calls: the bound of that design, not of every lock. */
  readonly handoffCeiling?: TurnCeiling;
}

/** The fastest the section ran with no lock in one run. */
export interface NoLockBound {
  readonly perSec: number;
  /** How it ran: `alone` (one client back to back), or passed round the ring (`turns`, `runs`). */
  readonly how: 'alone' | 'turns' | 'runs';
  /** In words, as the verdicts print it. */
  readonly label: string;
}

/**
 * The fastest of a run's no-lock readings, the section alone winning ties. Each reading runs the
 * section one at a time, as under any lock, so a lock's share of the ceiling and a claim that a
 * rate is out of reach are taken against the fastest of them, not against the section alone: on
 * some hosts the ring runs it faster than one client back to back does (seen on a 2-vCPU KVM
 * guest in runs of 17, and usually in runs of 65), and a share of the slower reading would flatter every lock.
 */
export function fastestNoLock({ ceiling, turnCeiling, runCeiling }: LockCeilings): NoLockBound | undefined {
  const readings: NoLockBound[] = [];
  if (ceiling) readings.push({ perSec: ceiling.sectionPerSec, how: 'alone', label: 'the section alone' });
  if (turnCeiling)
    readings.push({ perSec: turnCeiling.turnsPerSec, how: 'turns', label: 'passed from process to process' });
  if (runCeiling) {
    const label = `passed from process to process in runs of ${runCeiling.sectionsPerTurn}`;
    readings.push({ perSec: runCeiling.sectionPerSec, how: 'runs', label });
  }
  // A reading of 0 (none taken) bounds nothing.
  return readings
    .filter((r) => r.perSec > 0)
    .reduce<NoLockBound | undefined>((best, r) => (!best || r.perSec > best.perSec ? r : best), undefined);
}
