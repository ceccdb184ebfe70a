import { sampleLockResult as result } from './lock-fixtures';
import { whyMissed } from './render-why';
import { sameRoundBound, targetsByRound } from './same-round-bound';
import { handoffCeiling, turnCeiling } from './turn-ceiling';

describe('sameRoundBound', () => {
  it('counts the rounds whose target lay above that round’s reading, and writes each pair', () => {
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
    const ours = { roundsGrantsPerSec: [1, 2, 3] };
    expect(targetsByRound(1.2, ours, { roundsGrantsPerSec: [1000, 2000, 3000] })).toEqual([1200, 2400, 3600]);
    expect(targetsByRound(1.2, ours, { roundsGrantsPerSec: [1000, 2000] })).toBeUndefined();
    expect(targetsByRound(1.2, {}, { roundsGrantsPerSec: [1000, 2000, 3000] })).toBeUndefined();
  });
});

describe('whyMissed, round by round', () => {
  // Ours without local hand-off against redlock over three rounds; the rings read once per round.
  const ours = (rounds: number[]) =>
    result('owner-checked:no-local-handoff', true, rounds[0], { atDefaults: false, roundsGrantsPerSec: rounds });
  const redlock = result('redlock', false, 4564, { roundsGrantsPerSec: [4564, 5657, 6289] });
  const missed = { floor: 1.2, ratio: 2997 / 4564, label: '1.2× redlock' };
  const why = (turns: number[], handoff: number[]) =>
    whyMissed(
      { turnCeiling: turnCeiling(turns), handoffCeiling: handoffCeiling(handoff) },
      ours([2997, 2701, 4452]),
      missed,
      redlock,
    );

  it('calls the target out of reach of the design when it lay above the hand-off ring in every round', () => {
    // 1.2× redlock: 5477, 6788, 7547; below the hand-off ring's highest (6774, in round 3) for the median round.
    expect(why([6965, 6791, 7622], [5285, 5746, 6774])).toBe(
      ". Why: 1.2× redlock is 5477 grants/s, below the 6774 turns/s of the hand-off ring at its highest reading, but above that ring's reading of the same round in every round (5477 > 5285, 6788 > 5746, 7547 > 6774): a lock of that design cannot reach it; owner-checked:no-local-handoff ran at 0.44 of the hand-off ring (0.39 of the turn ceiling)",
    );
  });

  it('says so of the turn ring too, the bound of any lock serving the processes in turn', () => {
    expect(why([5400, 6700, 7500], [5285, 5746, 6774])).toMatch(
      /^\. Why: 1\.2× redlock is 5477 grants\/s, below the 7500 turns\/s of the section passed from process to process with no lock at its highest reading, but above that ring's reading of the same round in every round \(5477 > 5400, 6788 > 6700, 7547 > 7500\): a lock serving the processes in turn cannot reach it;/,
    );
  });

  it('calls it not out of reach when some round read the ring above its target, and says in how many it did not', () => {
    const line = why([6965, 6791, 7622], [5285, 6900, 6774]);
    expect(line).toMatch(
      /^\. Not out of reach: 1\.2× redlock is 5477 grants\/s, below the 6900 turns\/s of the hand-off ring; round by round, above that ring's reading of the same round in 2 of 3 rounds \(5477 > 5285, 6788 ≤ 6900, 7547 > 6774\); owner-checked:no-local-handoff ran at 0\.43 of that ceiling, so the rest is the lock's own cost/,
    );
    expect(why([9000, 9000, 9000], [8000, 8000, 8000])).not.toMatch(/round by round/);
  });

  it('compares no rounds over a single round, as the highest reading is then that round’s', () => {
    const once = whyMissed(
      { turnCeiling: turnCeiling([6965]), handoffCeiling: handoffCeiling([5285]) },
      result('owner-checked:no-local-handoff', true, 2997, { atDefaults: false }),
      { floor: 1.2, ratio: 2997 / 4000, label: '1.2× redlock' },
      result('redlock', false, 4000),
    );
    expect(once).toMatch(/^\. Not out of reach: 1\.2× redlock is 4800 grants\/s, below the 5285 turns\/s/);
    expect(once).not.toMatch(/round by round/);
  });
});
