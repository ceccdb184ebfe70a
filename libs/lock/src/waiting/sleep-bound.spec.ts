import { sleepBound } from './acquire-with-wait';

describe('sleepBound', () => {
  it("sleeps until the holder's lease ends, within the budget", () => {
    expect(sleepBound(120, 1000)).toBe(120);
    expect(sleepBound(5000, 300)).toBe(300);
  });

  it('never sleeps the whole budget for a lease in its last millisecond (PTTL 0)', () => {
    expect(sleepBound(0, 1000)).toBe(1);
  });

  it('waits for a wake-up, bounded by the budget, when the lock never expires', () => {
    expect(sleepBound(-1, 700)).toBe(700);
    expect(sleepBound(undefined, 700)).toBe(700);
  });

  it('retries at once when the lock vanished between attempt and PTTL', () => {
    expect(sleepBound(-2, 700)).toBe(0);
  });
});
