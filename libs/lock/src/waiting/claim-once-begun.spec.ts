import { claimOnceBegun, confirmed } from './claim-once-begun';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('claimOnceBegun', () => {
  it('sends the claim only after this turn of the event loop, and answers what it answered', async () => {
    const sent: string[] = [];
    const claim = claimOnceBegun(() => {
      sent.push('claim');
      return Promise.resolve(false);
    });
    sent.push('section'); // what runs before the next turn goes first
    await Promise.resolve();
    expect(sent).toEqual(['section']);
    expect(await claim.answer).toBe(false);
    expect(sent).toEqual(['section', 'claim']);
  });

  it('never sends a claim dropped before it went out, and answers true: the release checks the owner itself', async () => {
    const send = jest.fn(() => Promise.resolve(false));
    const claim = claimOnceBegun(send);
    claim.drop();
    expect(await claim.answer).toBe(true);
    await turn();
    expect(send).not.toHaveBeenCalled();
  });

  it('keeps the answer of a claim sent before the drop', async () => {
    const claim = claimOnceBegun(() => Promise.resolve(false));
    await turn();
    claim.drop();
    expect(await claim.answer).toBe(false);
  });
});

describe('confirmed', () => {
  it('says why the lock is not ours, or nothing while it is', async () => {
    expect(await confirmed(Promise.resolve(true))).toBeUndefined();
    expect(await confirmed(Promise.resolve(false))).toBe('the claim found the lock gone');
    expect(await confirmed(Promise.reject(new Error('down')))).toBe('the claim failed: Error: down');
  });
});
