import { undeclaredUse } from './declared-uses';

describe('undeclaredUse', () => {
  it('lets plain grabs through whatever is declared', () => {
    expect(undeclaredUse({ strategy: 'none', workMs: 20 }, [])).toBeUndefined();
  });

  it('names chaos options a step did not declare', () => {
    expect(undeclaredUse({ leaseMs: 500, waitMs: 10 }, [])).toBe(
      "leaseMs, waitMs (chaos options) without declaring 'chaos'",
    );
    expect(undeclaredUse({ nested: true }, [])).toContain('nested');
    expect(undeclaredUse({ nested: false }, [])).toBeUndefined();
    expect(undeclaredUse({ leaseMs: 500 }, ['chaos'])).toBeUndefined();
    expect(undeclaredUse({ step: 'gate-1' }, [])).toContain('step');
  });

  it('names a stall or a crash a step did not declare as a fault, even with chaos declared', () => {
    expect(undeclaredUse({ pauseMs: 1500, leaseMs: 500 }, ['chaos'])).toBe(
      "pauseMs (a fault) without declaring 'fault'",
    );
    expect(undeclaredUse({ crash: 'after-acquire' }, ['chaos'])).toContain('crash');
    expect(undeclaredUse({ freezeMs: 100 }, ['chaos', 'fault'])).toBeUndefined();
  });
});
