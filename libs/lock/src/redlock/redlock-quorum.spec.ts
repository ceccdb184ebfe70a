import {
  clockDriftMs,
  describeVotes,
  judgeAttempt,
  MAX_RETRY_WINDOW_MS,
  quorumOf,
  retryDelayMs,
  validityMs,
  type NodeVote,
} from './redlock-quorum';

describe('quorumOf', () => {
  it.each([
    [1, 1],
    [2, 2],
    [3, 2],
    [4, 3],
    [5, 3],
    [6, 4],
    [7, 4],
  ])('of %i nodes is %i', (nodes, quorum) => {
    expect(quorumOf(nodes)).toBe(quorum);
  });

  it('never lets two disjoint sets of grants both reach it', () => {
    for (let nodes = 1; nodes <= 9; nodes++) expect(2 * quorumOf(nodes)).toBeGreaterThan(nodes);
  });
});

describe('clockDriftMs and validityMs', () => {
  it('allow 1% of the lease plus 2 ms by default', () => {
    expect(clockDriftMs(10_000)).toBe(102);
    expect(clockDriftMs(300)).toBe(5);
    expect(clockDriftMs(10_000, 0.05)).toBe(502);
  });

  it('count the lease down by the time the votes took and the drift', () => {
    expect(validityMs(10_000, 0)).toBe(9_898);
    expect(validityMs(10_000, 250)).toBe(9_648);
    expect(validityMs(300, 295)).toBe(0);
    expect(validityMs(300, 400)).toBeLessThan(0);
  });
});

describe('judgeAttempt', () => {
  const five = (...granted: number[]): NodeVote[] =>
    [0, 1, 2, 3, 4].map((i) => (granted.includes(i) ? 'granted' : 'taken'));

  it('wins with a majority of grants and time left', () => {
    expect(judgeAttempt(five(0, 2, 4), 10_000, 10)).toEqual({
      acquired: true,
      granted: 3,
      quorum: 3,
      validityMs: 9_888,
    });
  });

  it('loses one grant short of a majority', () => {
    expect(judgeAttempt(five(0, 1), 10_000, 10)).toMatchObject({ acquired: false, granted: 2, quorum: 3 });
  });

  it('loses a majority that came in too late to be used', () => {
    const verdict = judgeAttempt(five(0, 1, 2, 3, 4), 1_000, 990);
    expect(verdict).toMatchObject({ acquired: false, granted: 5 });
    expect(verdict.validityMs).toBeLessThanOrEqual(0);
  });

  it('counts nodes that are down or too slow as votes against', () => {
    const votes: NodeVote[] = ['granted', 'granted', 'down', 'timeout', 'down'];
    expect(judgeAttempt(votes, 10_000, 5).acquired).toBe(false);
    expect(judgeAttempt(['granted', 'granted', 'granted', 'timeout', 'down'], 10_000, 5).acquired).toBe(true);
  });
});

describe('retryDelayMs', () => {
  it('draws from 1 ms up to the jitter after the first failed attempt', () => {
    expect(retryDelayMs(20, 1, 10_000, () => 0)).toBe(1);
    expect(retryDelayMs(20, 1, 10_000, () => 0.999)).toBe(20);
  });

  it('doubles the window with each failed attempt, up to its ceiling', () => {
    expect(retryDelayMs(20, 2, 10_000, () => 0.999)).toBe(40);
    expect(retryDelayMs(20, 4, 10_000, () => 0.999)).toBe(160);
    expect(retryDelayMs(20, 6, 10_000, () => 0.999)).toBe(MAX_RETRY_WINDOW_MS);
    expect(retryDelayMs(20, 5_000, 10_000, () => 0.999)).toBe(MAX_RETRY_WINDOW_MS);
  });

  it('keeps a jitter above the ceiling as given', () => {
    expect(retryDelayMs(800, 3, 10_000, () => 0.999)).toBe(800);
  });

  it('never sleeps past the wait budget', () => {
    expect(retryDelayMs(20, 3, 7, () => 0.999)).toBe(7);
    expect(retryDelayMs(20, 1, -3, () => 0.5)).toBe(0);
  });
});

describe('describeVotes', () => {
  it('names each node and the tally', () => {
    expect(describeVotes(['a:1', 'b:2', 'c:3'], ['granted', 'down', 'timeout'])).toBe(
      '1/3 granted (quorum 2): a:1=granted b:2=down c:3=timeout',
    );
  });
});
