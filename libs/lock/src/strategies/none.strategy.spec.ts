import { LockAbortedError } from '../lock.errors';
import { NoneStrategy } from './none.strategy';

describe('NoneStrategy', () => {
  it('runs the section at once, without any lock', async () => {
    expect(await new NoneStrategy().run('r', { leaseMs: 1000, waitMs: 0 }, () => Promise.resolve('ran'))).toBe('ran');
  });

  it('never runs the section for a caller whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('client gone'));
    let ran = false;
    const run = new NoneStrategy().run('r', { leaseMs: 1000, waitMs: 1000, signal: controller.signal }, () =>
      Promise.resolve(void (ran = true)),
    );
    await expect(run).rejects.toBeInstanceOf(LockAbortedError);
    expect(ran).toBe(false);
  });
});
