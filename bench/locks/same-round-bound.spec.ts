import { sampleLockResult as result } from './lock-fixtures';
import { whyMissed } from './render-why';
import { roundsClause, sameRoundBound, targetsByRound } from './same-round-bound';
import { sectionCeiling } from './section-ceiling';
import { handoffCeiling, runCeiling, turnCeiling } from './turn-ceiling';

describe('sameRoundBound', () => {
  it("counts the rounds whose target lay above that round's reading, and writes each pair", () => {
    expect(sameRoundBound([5477, 6788, 7547], [5285, 5746, 6774])).toEqual({
      above: 3,
      rounds: 3,
      pairs: '5477 > 5285, 6788 > 5746, 7547 > 6774',
    });
    expect(sameRoundBound([5000, 6000], [5500, 5800])).toEqual({
      above: 1,
      rounds: 2,
      pairs: '5000 ≤ 5500, 6000 > 5800',
    });
    expect(sameRoundBound([4000, 4000], [4000, 4100])?.above).toBe(0); // equal is not above
  });

  it('compares nothing over one round, rounds that do not pair up, or a reading not taken', () => {
    expect(sameRoundBound([5000], [4000])).toBeUndefined();
    expect(sameRoundBound([5000, 6000], [4000, 4000, 4000])).toBeUndefined();
    expect(sameRoundBound([5000, 6000], [4000, 0])).toBeUndefined();
    expect(sameRoundBound(undefined, [4000, 4000])).toBeUndefined();
    expect(sameRoundBound([5000, Number.POSITIVE_INFINITY], [4000, 4000])).toBeUndefined();
  });

  it("takes each round's target from the peer's rate in that round, when ours ran the same rounds", () => {
    const ours = result('owner-checked', true, 2, { roundsGrantsPerSec: [1, 2, 3] });
    const peer = (rounds?: number[]) => result('redlock', false, 2000, { roundsGrantsPerSec: rounds });
    expect(targetsByRound(1.2, ours, peer([1000, 2000, 3000]))).toEqual([1200, 2400, 3600]);
    expect(targetsByRound(1.2, ours, peer([1000, 2000]))).toBeUndefined();
    expect(targetsByRound(1.2, ours, peer())).toBeUndefined();
    expect(targetsByRound(1.2, ours, undefined)).toBeUndefined();
  });

  it('says it beside a verdict in both directions, and says nothing when it compared nothing', () => {
    expect(roundsClause([5000, 6000], [5500, 5800], '1.2× redlock', 'the hand-off ring')).toBe(
      "; against each round's own reading of the hand-off ring, 1.2× redlock at the peer's rate in that round lay above it in 1 of 2 rounds (5000 ≤ 5500, 6000 > 5800)",
    );
    expect(roundsClause([5000, 5000], [5500, 5800], 'x', 'the turn ring')).toMatch(/lay above it in 0 of 2 rounds/);
    expect(roundsClause([5000], [4000], 'x', 'the turn ring')).toBe('');
  });
});

describe('whyMissed beside the highest reading: round by round', () => {
  // Ours without local hand-off against redlock over three rounds; the rings read once per round.
  // 1.2× redlock is 5477, 6788 and 7547 round by round, and 5477 for the ratio the verdict reads.
  const redlock = result('redlock', false, 4564, { roundsGrantsPerSec: [4564, 5657, 6289] });
  const why = (turns: number[], handoff: number[]) =>
    whyMissed(
      { ceiling: sectionCeiling([20000]), turnCeiling: turnCeiling(turns), handoffCeiling: handoffCeiling(handoff) },
      result('owner-checked:no-local-handoff', true, 2997, {
        atDefaults: false,
        roundsGrantsPerSec: [2997, 2701, 4452],
      }),
      { floor: 1.2, ratio: 2997 / 4564, label: '1.2× redlock' },
      redlock,
    );

  it('leaves the verdict to the highest reading, even when every round read its ring below its target', () => {
    expect(why([6965, 6791, 7622], [5285, 5746, 6774])).toMatch(
      /^\. Not out of reach: 1\.2× redlock is 5477 grants\/s, below the 6774 turns\/s of the hand-off ring; against each round's own reading of the hand-off ring, 1\.2× redlock at the peer's rate in that round lay above it in 3 of 3 rounds \(5477 > 5285, 6788 > 5746, 7547 > 6774\); owner-checked:no-local-handoff ran at 0\.44 of that ceiling, so the rest is the lock's own cost/,
    );
    expect(why([9000, 9000, 9000], [8000, 8000, 8000])).toMatch(
      /below the 8000 turns\/s of the hand-off ring; against each round's own reading of the hand-off ring, .* lay above it in 0 of 3 rounds \(5477 ≤ 8000, 6788 ≤ 8000, 7547 ≤ 8000\); /,
    );
  });

  it('says it beside an out-of-reach verdict too, against the ring that verdict names', () => {
    expect(why([6965, 6791, 7622], [4000, 4500, 5000])).toMatch(
      /a lock of that design cannot reach it; against each round's own reading of the hand-off ring, 1\.2× redlock at the peer's rate in that round lay above it in 3 of 3 rounds \(5477 > 4000, 6788 > 4500, 7547 > 5000\); owner-checked:no-local-handoff ran at 0\.60 of the hand-off ring/,
    );
    expect(why([5000, 5200, 5400], [4000, 4500, 5000])).toMatch(
      /above the 5400 turns\/s of the section passed from process to process with no lock: a lock serving the processes in turn cannot reach it; against each round's own reading of the turn ring, .* lay above it in 3 of 3 rounds \(5477 > 5000, 6788 > 5200, 7547 > 5400\); /,
    );
  });

  it("names no other ring's rounds when the ring the verdict names missed a round", () => {
    const line = why([6965, 6791, 7622], [5285, 0, 6774]);
    expect(line).toMatch(
      /^\. Not out of reach: 1\.2× redlock is 5477 grants\/s, below the 6774 turns\/s of the hand-off ring; owner-checked/,
    );
    expect(line).not.toMatch(/each round/);
  });

  it('holds ours with local hand-off to the ring in runs round by round', () => {
    const line = whyMissed(
      { runCeiling: runCeiling(257, [12000, 13000, 14000]) },
      result('owner-checked', true, 8000, { roundsGrantsPerSec: [8000, 9000, 10000] }),
      { floor: 2, ratio: 8000 / 4564, label: '2× redlock' },
      redlock,
    );
    expect(line).toMatch(
      /^\. Not out of reach: 2× redlock is 9128 grants\/s, below the 14000 sections\/s of the section passed from process to process in runs of 257 with no lock; against each round's own reading of the ring in runs, 2× redlock at the peer's rate in that round lay above it in 0 of 3 rounds \(9128 ≤ 12000, 11314 ≤ 13000, 12578 ≤ 14000\); /,
    );
  });

  it("compares no rounds over a single round: the highest reading is that round's", () => {
    const once = whyMissed(
      { turnCeiling: turnCeiling([6965]), handoffCeiling: handoffCeiling([5285]) },
      result('owner-checked:no-local-handoff', true, 2997, { atDefaults: false }),
      { floor: 1.2, ratio: 2997 / 4000, label: '1.2× redlock' },
      result('redlock', false, 4000),
    );
    expect(once).toMatch(/^\. Not out of reach: 1\.2× redlock is 4800 grants\/s, below the 5285 turns\/s/);
    expect(once).not.toMatch(/each round/);
  });
});
