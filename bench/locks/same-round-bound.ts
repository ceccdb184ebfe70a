import type { LockBenchResult } from './aggregate';
import { ratiosPerRound } from './lock-targets';

/**
 * A target against a ring round by round. Each round reads the rings, then runs the contenders,
 * minutes apart at most; a ring's highest reading may come from another round, on a faster moment
 * of the machine than the peer's. A single 5 s reading may be disturbed too, so this is said
 * beside the verdict, which the highest reading decides, never instead of it.
 */
export interface SameRoundBound {
  /** Rounds whose target lay above that round's reading. */
  readonly above: number;
  /** Rounds compared. */
  readonly rounds: number;
  /** Each round's target and reading, in words: `5477 > 5285`. */
  readonly pairs: string;
}

/**
 * Pure: undefined unless there are two rounds or more, each with a target and a reading taken (a
 * reading of 0 bounds nothing, and a round without one cannot be compared).
 */
export function sameRoundBound(
  targets: readonly number[] | undefined,
  readings: readonly number[] | undefined,
): SameRoundBound | undefined {
  if (!targets || !readings || targets.length !== readings.length || targets.length < 2) return undefined;
  if (readings.some((r) => !(r > 0)) || targets.some((t) => !Number.isFinite(t))) return undefined;
  const above = targets.filter((t, i) => t > readings[i]).length;
  const pairs = targets
    .map((t, i) => `${t.toFixed(0)} ${t > readings[i] ? '>' : '≤'} ${readings[i].toFixed(0)}`)
    .join(', ');
  return { above, rounds: targets.length, pairs };
}

/** The target's rate in each round: the floor times the peer's rate then, when ours ran the same rounds. */
export function targetsByRound(
  floor: number,
  ours: LockBenchResult,
  peer: LockBenchResult | undefined,
): number[] | undefined {
  if (!peer || !ratiosPerRound(ours, peer)) return undefined;
  return peer.roundsGrantsPerSec!.map((g) => g * floor);
}

/**
 * Beside a verdict on a ring's highest reading: in how many rounds the target lay above that
 * round's reading ('' when no rounds could be compared).
 */
export function roundsClause(
  targets: readonly number[] | undefined,
  readings: readonly number[],
  label: string,
  ring: string,
): string {
  const bound = sameRoundBound(targets, readings);
  if (!bound) return '';
  return `; against each round's own reading of ${ring}, ${label} at the peer's rate in that round lay above it in ${bound.above} of ${bound.rounds} rounds (${bound.pairs})`;
}
