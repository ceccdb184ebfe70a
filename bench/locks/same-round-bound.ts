/**
 * A target against a ceiling round by round. Each round measures the ceilings and every contender
 * minutes apart at most, so a round's target (the floor times the peer's rate in that round) and
 * that round's ceiling reading saw the same machine; the highest reading over the rounds may come
 * from a faster moment than the peer's round, as the target's own rate may.
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

/** The target's rate in each round: the floor times the peer's rate then, when both ran the same rounds. */
export function targetsByRound(
  floor: number,
  ours: { readonly roundsGrantsPerSec?: readonly number[] },
  peer: { readonly roundsGrantsPerSec?: readonly number[] } | undefined,
): number[] | undefined {
  const a = ours.roundsGrantsPerSec;
  const b = peer?.roundsGrantsPerSec;
  if (!a || !b || a.length !== b.length) return undefined;
  return b.map((g) => g * floor);
}
