import { sameProcessLine, sameProcessShare } from './same-process';

const report = (processIndex: number, places: number[]) => ({ processIndex, places });

describe('sameProcessShare', () => {
  it('is 0 for grants served to the processes in turn', () => {
    expect(sameProcessShare([report(0, [0, 3, 6]), report(1, [1, 4, 7]), report(2, [2, 5, 8])])).toBe(0);
  });

  it('is 1 for one process that kept the lock', () => {
    expect(sameProcessShare([report(0, [0, 1, 2, 3]), report(1, [])])).toBe(1);
  });

  it('counts each grant against the one before it in the order, whichever process reported it', () => {
    // Order 0 1 | 2 3 4 | 5: runs of 2, 3 and 1; the first grant has nothing before it.
    const share = sameProcessShare([report(0, [4, 2, 3]), report(1, [1, 0]), report(2, [5])]);
    expect(share).toBeCloseTo(3 / 5);
  });

  it('skips a grant whose predecessor is not among the places', () => {
    expect(sameProcessShare([report(0, [0, 1, 5, 6]), report(1, [2])])).toBeCloseTo(2 / 3);
  });

  it('is undefined with no places (a report from before they were kept, or a single grant)', () => {
    expect(sameProcessShare([{ processIndex: 0 }])).toBeUndefined();
    expect(sameProcessShare([report(0, [0])])).toBeUndefined();
  });
});

describe('sameProcessLine', () => {
  it('gives each lock its share and its hand-offs between processes per second', () => {
    const line = sameProcessLine([
      { contender: 'owner-checked', grantsPerSec: 4000, sameProcessShare: 0.99 },
      { contender: 'owner-checked:no-local-handoff', grantsPerSec: 2000, sameProcessShare: 0 },
      { contender: 'redis-semaphore', grantsPerSec: 1500 },
      { contender: 'redlock', grantsPerSec: 2500, sameProcessShare: 0.9 },
    ]);
    expect(line).toMatch(/^the lock stayed in its process \(/);
    expect(line).toMatch(
      /: owner-checked 99\.0% \(40\/s\), owner-checked:no-local-handoff 0\.0% \(2000\/s\), redlock 90\.0% \(250\/s\)$/,
    );
  });

  it('is undefined when no lock measured it', () => {
    expect(sameProcessLine([{ contender: 'redlock', grantsPerSec: 2500 }])).toBeUndefined();
  });
});
