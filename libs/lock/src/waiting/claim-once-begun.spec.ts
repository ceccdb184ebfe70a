import { claimOnceBegun, confirmed } from './claim-once-begun';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('claimOnceBegun', () => {
  it('waits out this turn of the event loop, microtasks and next ticks included, then claims', async () => {
    const sent: string[] = [];
    const claim = claimOnceBegun(() => {
      sent.push('claim');
      return Promise.resolve(false);
    });
    await new Promise<void>((resolve) => process.nextTick(resolve));
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    sent.push('section'); // the section's first command, sent from the wake-up's callback
    expect(sent).toEqual(['section']);
    await turn();
    expect(sent).toEqual(['section', 'claim']);
    expect(await claim.answer).toBe(false);
  });

  it('sends at once when asked before its turn, and once only', async () => {
    const send = jest.fn(() => Promise.resolve(true));
    const claim = claimOnceBegun(send);
    claim.sendNow();
    expect(send).toHaveBeenCalledTimes(1);
    await turn();
    claim.sendNow();
    expect(send).toHaveBeenCalledTimes(1);
    expect(await claim.answer).toBe(true);
  });
});

describe('confirmed', () => {
  it('says why the lock is not ours, or nothing while it is', async () => {
    expect(await confirmed(Promise.resolve(true))).toBeUndefined();
    expect(await confirmed(Promise.resolve(false))).toBe('the claim found the lock gone');
    expect(await confirmed(Promise.reject(new Error('down')))).toBe('the claim failed: Error: down');
  });
});
