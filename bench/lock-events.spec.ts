import type { LockEvent } from '@app/contract';
import type { LockEventType } from '@app/lock';
import { lockEventFigures } from './lock-events';

const event = (type: LockEventType, at: number, durationMs?: number, replica = 'api-1'): LockEvent => ({
  type,
  strategy: 'watchdog',
  resource: 'coupon:9',
  owner: `${replica}:owner`,
  at,
  ...(durationMs === undefined ? {} : { durationMs }),
  replica,
});

describe('lockEventFigures', () => {
  it('takes the longest acquire wait and the held intervals from release events', () => {
    const figures = lockEventFigures([
      event('acquire', 1_000, 12),
      event('release', 1_020, 20),
      event('acquire', 1_021, 40),
      event('renew', 1_030),
      event('release', 1_050, 29),
      event('timeout', 1_060, 900),
    ]);
    expect(figures).toEqual({
      maxWaitMs: 40,
      held: [
        { start: 1_000, end: 1_020 },
        { start: 1_021, end: 1_050 },
      ],
    });
  });

  it("merges every replica's events", () => {
    const figures = lockEventFigures([
      event('acquire', 2_000, 5, 'api-1'),
      event('release', 2_010, 10, 'api-1'),
      event('acquire', 2_013, 75, 'api-3'),
      event('release', 2_030, 17, 'api-3'),
    ]);
    expect(figures.maxWaitMs).toBe(75);
    expect(figures.held).toEqual([
      { start: 2_000, end: 2_010 },
      { start: 2_013, end: 2_030 },
    ]);
  });

  it('skips acquire and release events that carry no duration', () => {
    expect(lockEventFigures([event('acquire', 1_000), event('release', 1_005)])).toEqual({ held: [] });
    expect(lockEventFigures([event('acquire', 1_000), event('acquire', 1_001, 0)])).toEqual({ maxWaitMs: 0, held: [] });
  });

  it('has no wait when no lock reported one (database strategies)', () => {
    expect(lockEventFigures([])).toEqual({ held: [] });
  });
});
