import type { LockBenchResult } from './aggregate';
import { cpuAgainst, waitedForCpu } from './render-cpu';
import { fastestNoLock, type LockCeilings } from './no-lock-bound';
import { stayedFigures } from './same-process';
import { roundsClause, targetsByRound } from './same-round-bound';

/** A ratio target ours missed: its floor, the ratio the verdict reads, and the target in words (`1.2× redlock`). */
export interface MissedRatio {
  readonly floor: number;
  readonly ratio: number;
  readonly label: string;
}

/**
 * A missed ratio measured against the ceiling that bounds the lock: the fastest the section ran
 * with no lock (`fastestNoLock`) for any lock; the section passed from process to process for
 * ours, which serves the processes in turn (one grant each without local hand-off, a run of them
 * with it); for ours without local hand-off also that ring making the calls of a queue hand-off
 * with a claim lease, the bound of its design. Says whether the target lies above them (out of
 * reach) or below (a real miss), by their highest reading, and beside it, over several rounds, how
 * each round's target stood against the same round's reading; then, when measured, how often the
 * best peer's lock and ours stayed in their process.
 */
export function whyMissed(
  ceilings: LockCeilings,
  result: LockBenchResult,
  missed: MissedRatio,
  peer?: LockBenchResult,
): string {
  // The rate ours needed at its reported round for the ratio the verdict reads (paired by round) to reach the floor.
  const { floor, ratio } = missed;
  const wanted = ratio > 0 ? (result.grantsPerSec * floor) / ratio : (peer?.grantsPerSec ?? 0) * floor;
  const why = reason(ceilings, result, wanted, missed.label, targetsByRound(floor, result, peer));
  return why && `${why}${stayedClause(result, peer)}`;
}

/**
 * Beside a miss, when both rows measured it: how often the best peer's lock and ours stayed in
 * their process. A grant that stays needs no wake-up in another process, so two locks that
 * differ there do not do the same work per grant.
 */
function stayedClause(result: LockBenchResult, peer: LockBenchResult | undefined): string {
  if (peer?.sameProcessShare === undefined || result.sameProcessShare === undefined) return '';
  const of = (r: LockBenchResult, share: number) => {
    const { percent, perSec } = stayedFigures(r.grantsPerSec, share);
    return `${percent} of its grants (${perSec} hand-offs between processes per s)`;
  };
  return `; ${peer.contender} kept the lock in its process for ${of(peer, peer.sameProcessShare)}, ${result.contender} for ${of(result, result.sameProcessShare)}`;
}

function reason(
  ceilings: LockCeilings,
  result: LockBenchResult,
  wanted: number,
  target: string,
  perRound: number[] | undefined,
): string {
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
    // A reading of 0 (none taken) bounds nothing; nor does a hand-off ring that read above the turn ring.
    const handoff = servesInTurn(result) ? ceilings.handoffCeiling : undefined;
    const tighter = handoff && handoff.turnsPerSec > 0 && handoff.turnsPerSec <= ring.perSec ? handoff : undefined;
    const ofHandoff = tighter && `${(result.grantsPerSec / tighter.turnsPerSec).toFixed(2)} of the hand-off ring`;
    // The highest readings decide (a disturbed reading would excuse the lock); each round is said beside them.
    const inTurn = roundsClause(perRound, ring.readings, target, ring.name);
    if (wanted > ring.perSec) {
      const also = ofHandoff ? ` (${ofHandoff})` : '';
      return `. Why: ${target} is ${wanted.toFixed(0)} grants/s, above the ${of}: a lock serving the processes in turn${ring.each} cannot reach it${inTurn}; ${share(ring.perSec)}${also}`;
    }
    const inDesign = tighter ? roundsClause(perRound, tighter.readings, target, 'the hand-off ring') : '';
    if (tighter && wanted > tighter.turnsPerSec) {
      const turnShare = (result.grantsPerSec / ring.perSec).toFixed(2);
      return `. Why: ${target} is ${wanted.toFixed(0)} grants/s, below the ${of} but above the ${tighter.turnsPerSec.toFixed(0)} turns/s of that ring making the calls of a queue hand-off with a claim lease (a claim, a set-and-wake) with no lock: a lock of that design cannot reach it${inDesign}; ${result.contender} ran at ${ofHandoff} (${turnShare} of the turn ceiling)`;
    }
    // Below the tightest ring, the gap is the lock's own cost.
    const bound = tighter
      ? {
          perSec: tighter.turnsPerSec,
          of: `${tighter.turnsPerSec.toFixed(0)} turns/s of the hand-off ring`,
          cpu: tighter.cpuMicrosPerTurn,
          cpuUnit: 'turn of the hand-off ring',
          wait: tighter.cpuWait,
        }
      : { perSec: ring.perSec, of, cpu: ring.cpu, cpuUnit: ring.cpuUnit, wait: ring.wait };
    return `. Not out of reach: ${target} is ${wanted.toFixed(0)} grants/s, below the ${bound.of}${tighter ? inDesign : inTurn}; ${share(bound.perSec)}, so the rest is the lock's own cost${cpuAgainst(result, bound.cpu, bound.cpuUnit)}${waitedForCpu(result, bound.wait, ring.waitUnit)}`;
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
    if (!turns || turns.turnsPerSec <= 0) return undefined; // a reading of 0 (none taken) bounds nothing
    return {
      perSec: turns.turnsPerSec,
      readings: turns.readings,
      name: 'the turn ring',
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
  if (!result.ours || result.contender.endsWith(':pubsub') || !runs || runs.sectionPerSec <= 0) return undefined;
  return {
    perSec: runs.sectionPerSec,
    readings: runs.readings,
    name: 'the ring in runs',
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
