import { lockLessons } from './lessons';
import { sampleLockResult as result } from '../../test/fixtures/lock-bench';

const ours = (grantsPerSec: number, extra = {}) => result('owner-checked', true, grantsPerSec, extra);
const ablation = (grantsPerSec: number) => result('owner-checked:no-local-handoff', true, grantsPerSec);
const semaphore = result('redis-semaphore', false, 2622, { jain: 0.75, maxWaitMs: 4100 });
const redlock = result('redlock', false, 3036, { jain: 0.74, maxWaitMs: 2356 });

const byId = (lessons: ReturnType<typeof lockLessons>) => Object.fromEntries(lessons.map((l) => [l.id, l]));

describe('lockLessons', () => {
  const run = [ours(7108, { jain: 0.9999, maxWaitMs: 135 }), ablation(2970), semaphore, redlock];

  it('states each lesson with the numbers of this run, against the fastest peer at its defaults', () => {
    const lessons = byId(lockLessons(run, 6720));
    expect(Object.keys(lessons)).toEqual(['fair-and-fast', 'local-handoff', 'lock-cost', 'queue-bounds-waits']);
    expect(lessons['fair-and-fast']).toEqual({
      id: 'fair-and-fast',
      held: true,
      text: 'A fair lock need not be slow: owner-checked 7,108 grants/s with Jain 1.00, against 3,036 and Jain 0.74 for redlock, the fastest peer.',
    });
    expect(lessons['local-handoff'].text).toContain('owner-checked 7,108 grants/s against 2,970 without it (2.4×).');
    expect(lessons['lock-cost'].text).toContain(
      'redlock, the fastest peer, ran at 45% of the section alone with no lock (3,036 of 6,720/s); owner-checked at 106%.',
    );
    expect(lessons['queue-bounds-waits'].text).toContain(
      "owner-checked's longest wait was 135 ms, against 2,356 ms at best for the peers (redlock)",
    );
    expect(Object.values(lessons).every((l) => l.held)).toBe(true);
  });

  it('says when a lesson did not hold, with the two numbers', () => {
    const slow = byId(lockLessons([ours(3000, { maxWaitMs: 3000 }), ablation(3100), semaphore, redlock], 4000));
    expect(slow['fair-and-fast']).toMatchObject({ held: false });
    expect(slow['fair-and-fast'].text).toMatch(/ Not in this run: 3,000 against 3,036 grants\/s\.$/);
    expect(slow['local-handoff'].text).toMatch(/ Not in this run: 3,000 with it, 3,100 without\.$/);
    expect(slow['lock-cost'].text).toMatch(/ Not in this run: 3,036 grants\/s against two thirds of 4,000\.$/);
    expect(slow['queue-bounds-waits'].text).toMatch(/ Not in this run: 3,000 against 2,356 ms\.$/);
    expect(Object.values(slow).some((l) => l.held)).toBe(false);
  });

  it('holds the fastest peer to two thirds of the section alone: one added round trip, inclusive', () => {
    const cost = (sectionPerSec: number) => byId(lockLessons([ours(7108), redlock], sectionPerSec))['lock-cost'];
    expect(cost(4554).held).toBe(true); // 3,036 × 3 = 9,108 ≤ 4,554 × 2
    expect(cost(4553).held).toBe(false);
  });

  it('counts a fast but unfair lock as not fair and fast', () => {
    const unfair = byId(lockLessons([ours(9000, { jain: 0.9 }), redlock]))['fair-and-fast'];
    expect(unfair).toMatchObject({ held: false });
    expect(unfair.text).toMatch(/ Not in this run: Jain 0\.90 against 0\.95\.$/);
  });

  it('leaves out what the run cannot speak to', () => {
    expect(lockLessons([ours(7108), ablation(3000)]).map((l) => l.id)).toEqual([]);
    expect(lockLessons([ours(7108), redlock]).map((l) => l.id)).toEqual(['fair-and-fast', 'queue-bounds-waits']);
    expect(lockLessons([ablation(3000), redlock], 6000)).toEqual([]);
  });
});
