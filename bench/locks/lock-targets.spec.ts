import { sampleLockResult as result } from './lock-fixtures';
import { bestPeer, handoffShare, lockTargets, missedTargets, ratiosPerRound, ratiosToBestPeer } from './lock-targets';

describe('bestPeer', () => {
  it('is the fastest peer run at its defaults; a tuned variant, however fast, does not set the bar', () => {
    const best = bestPeer([
      result('owner-checked', true, 9000),
      result('redis-semaphore', false, 2000),
      result('redlock', false, 2500),
      result('redlock:retry-10s', false, 8000, { atDefaults: false }),
    ]);
    expect(best?.contender).toBe('redlock');
  });

  it('is undefined without a peer at its defaults', () => {
    expect(
      bestPeer([result('owner-checked', true, 1), result('redlock:retry-10s', false, 1, { atDefaults: false })]),
    ).toBe(undefined);
  });
});

describe('ratiosToBestPeer', () => {
  it('divides each of ours, ablations included, by the fastest peer at its defaults', () => {
    const ratios = ratiosToBestPeer([
      result('owner-checked', true, 6000),
      result('owner-checked:no-local-handoff', true, 3000, { atDefaults: false }),
      result('a', false, 2000),
      result('b', false, 2500),
      result('b:tuned', false, 5000, { atDefaults: false }),
    ]);
    expect(ratios).toEqual([
      { ours: 'owner-checked', bestPeer: 'b', ratio: 2.4 },
      { ours: 'owner-checked:no-local-handoff', bestPeer: 'b', ratio: 1.2 },
    ]);
  });

  it('is empty without peers at their defaults', () => {
    expect(ratiosToBestPeer([result('owner-checked', true, 1)])).toEqual([]);
    expect(
      ratiosToBestPeer([result('owner-checked', true, 1), result('b:tuned', false, 5, { atDefaults: false })]),
    ).toEqual([]);
  });

  it("takes the median round's ratio when both ran the same rounds, which can fail or pass where their median rates would not", () => {
    const ratio = (ours: number[], peer: number[]) =>
      ratiosToBestPeer([
        result('owner-checked', true, [...ours].sort((a, b) => a - b)[1], { roundsGrantsPerSec: ours }),
        result('redlock', false, [...peer].sort((a, b) => a - b)[1], { roundsGrantsPerSec: peer }),
      ])[0].ratio;
    // Our fast round fell on the peer's slow one: 2.0× by median rates, 1.33× round by round.
    expect(ratio([3000, 1000, 2000], [1000, 1000, 1500]).toFixed(2)).toBe('1.33');
    // Drift the other way: 1.5× by median rates, 2× in two rounds of three.
    expect(ratio([2000, 1000, 1500], [1000, 500, 1000])).toBe(2);
    // An even count takes the lower middle, as the median round does.
    const two = ratiosToBestPeer([
      result('owner-checked', true, 3000, { roundsGrantsPerSec: [1000, 3000] }),
      result('redlock', false, 1000, { roundsGrantsPerSec: [1000, 1000] }),
    ]);
    expect(two[0].ratio).toBe(1);
  });

  it('is infinite against a peer that granted nothing', () => {
    expect(ratiosToBestPeer([result('owner-checked', true, 10), result('a', false, 0)])[0].ratio).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
});

describe('ratiosPerRound', () => {
  it('divides ours by the peer round by round, and says nothing unless both ran the same rounds', () => {
    const ours = result('owner-checked', true, 1917, { roundsGrantsPerSec: [1647, 1917, 3233] });
    const peer = result('redlock', false, 2350, { roundsGrantsPerSec: [2045, 2350, 2656] });
    expect(ratiosPerRound(ours, peer)!.map((r) => r.toFixed(2))).toEqual(['0.81', '0.82', '1.22']);
    expect(ratiosPerRound(ours, result('redlock', false, 2350))).toBeUndefined();
    expect(ratiosPerRound(ours, { ...peer, roundsGrantsPerSec: [2045, 2350] })).toBeUndefined();
    const oneRound = { roundsGrantsPerSec: [2000] };
    expect(ratiosPerRound({ ...ours, ...oneRound }, { ...peer, ...oneRound })).toBeUndefined();
  });
});

describe('missedTargets', () => {
  const ours = result('owner-checked', true, 1);

  it('is empty when every target is met', () => {
    expect(missedTargets(ours, 2)).toEqual([]);
  });

  it('names each target missed', () => {
    expect(missedTargets(ours, 1.99)).toEqual(['1.99× < 2×']);
    expect(missedTargets(result('owner-checked', true, 1, { failedAcquisitions: 1 }), 3)).toEqual(['1 failed']);
    expect(missedTargets(result('owner-checked', true, 1, { jain: 0.949 }), 3)).toEqual(['Jain 0.949']);
    expect(missedTargets(result('owner-checked', true, 1, { processDeviation: 0.12 }), 3)).toEqual([
      'processes ±12.0%',
    ]);
    expect(missedTargets(result('owner-checked', true, 1, { maxWaitMs: 201 }), 3)).toEqual(['max wait 201 ms']);
    expect(missedTargets(result('owner-checked', true, 1, { counterMatches: false }), 3)).toEqual(['counter ≠ grants']);
  });

  it('takes the bounds themselves as met', () => {
    const onTheLine = result('owner-checked', true, 1, {
      jain: lockTargets.jain,
      processDeviation: lockTargets.processDeviation,
      maxWaitMs: lockTargets.maxWaitMs,
    });
    expect(missedTargets(onTheLine, 2)).toEqual([]);
  });

  it('lists every miss at once', () => {
    const bad = result('owner-checked', true, 1, {
      failedAcquisitions: 4,
      jain: 0.5,
      processDeviation: 0.3,
      maxWaitMs: 3000,
      counterMatches: false,
    });
    expect(missedTargets(bad, 0.5)).toEqual([
      '0.50× < 2×',
      '4 failed',
      'Jain 0.500',
      'processes ±30.0%',
      'max wait 3000 ms',
      'counter ≠ grants',
    ]);
  });

  it('holds the ablation to its own, lower ratio, and a lock without a target to nothing', () => {
    expect(missedTargets(result('owner-checked:no-local-handoff', true, 1), 1.2)).toEqual([]);
    expect(missedTargets(result('owner-checked:no-local-handoff', true, 1), 1.1)).toEqual(['1.10× < 1.2×']);
    expect(missedTargets(result('watchdog', true, 1, { failedAcquisitions: 9, counterMatches: false }), 0.1)).toEqual(
      [],
    );
  });
});

describe('handoffShare', () => {
  it('sets our lead with local hand-off against the lead without it', () => {
    expect(
      handoffShare([
        result('owner-checked', true, 6000),
        result('owner-checked:no-local-handoff', true, 3000, { atDefaults: false }),
        result('redlock', false, 2000),
      ]),
    ).toEqual({ withHandoff: 3, without: 1.5 });
  });

  it('is undefined without the ablation or without a peer', () => {
    expect(handoffShare([result('owner-checked', true, 6000), result('redlock', false, 2000)])).toBeUndefined();
    expect(
      handoffShare([
        result('owner-checked', true, 6000),
        result('owner-checked:no-local-handoff', true, 3000, { atDefaults: false }),
      ]),
    ).toBeUndefined();
  });
});
