import { lockEventFigures } from './lock-events';

const event = (type: string, at: number, durationMs?: number) => ({ type, strategy: 'watchdog', at, durationMs });

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

  it('has no wait when no lock reported one (database strategies)', () => {
    expect(lockEventFigures([])).toEqual({ held: [] });
  });
});
