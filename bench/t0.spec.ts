import type { Audit } from '@app/contract';
import { exactAudit } from '../test/fixtures/audit';
import { t0Lesson, T0_SETTINGS, type T0Run } from './t0';

const s = T0_SETTINGS;
const latency = (p99: number) => ({ count: 1, p50: p99, p90: p99, p99, max: p99 });
const exact: Audit = exactAudit(100);
const run = (room: boolean, p99: number, over1s: number, audit: Audit = exact) =>
  ({ room, firstAnswer: latency(p99), waitedOver1s: over1s, admittedToGrant: latency(40), audit }) as unknown as T0Run;

describe('the T0 lesson', () => {
  it('holds when the room answers sooner, fewer wait over 1 s, and both sell exactly the stock', () => {
    const lesson = t0Lesson(s, run(false, 1919, 955), run(true, 550, 0));
    expect(lesson).toEqual({
      id: 'room-answers-at-once',
      text:
        'At T0, 1000 buyers arriving within 2 s for 100 units: without a room the p99 buyer heard nothing for ' +
        '1919 ms and 955 waited over 1 s; with a room of 200/s every buyer had a position within p99 550 ms ' +
        '(0 over 1 s), and the admitted ones a grant within p99 40 ms.',
      held: true,
    });
  });

  it('does not hold when the room is no sooner, no fewer wait, or a sale is not exact', () => {
    expect(t0Lesson(s, run(false, 550, 955), run(true, 550, 0)).held).toBe(false);
    expect(t0Lesson(s, run(false, 1919, 3), run(true, 550, 3)).held).toBe(false);
    expect(t0Lesson(s, run(false, 1919, 955), run(true, 550, 0, { ...exact, grants: 101, oversold: 1 })).held).toBe(
      false,
    );
  });
});
