import { HandoffSlot } from './handoff-slot';

describe('HandoffSlot', () => {
  const slot = () => new HandoffSlot('watchdog', 'api-1:w', 5000);

  it('is claimed once; the waiter learns of the claim and then of the hand-off', async () => {
    const s = slot();
    let claimed = false;
    void s.claimed().then(() => (claimed = true));
    expect(s.claim()).toBe(true);
    expect(s.claim()).toBe(false);
    await Promise.resolve();
    expect(claimed).toBe(true);
    expect(s.isTaken).toBe(true);
    const handed = s.handed();
    s.settle(true);
    await expect(handed).resolves.toBe(true);
    await expect(s.handed()).resolves.toBe(true);
    expect(s.isOpen).toBe(false);
  });

  it("opens again when the holder's script refused: the waiter goes on by itself", async () => {
    const s = slot();
    s.claim();
    const handed = s.handed();
    s.settle(false);
    await expect(handed).resolves.toBe(false);
    expect(s.isOpen).toBe(true);
    expect(s.isTaken).toBe(false);
    expect(s.claim()).toBe(true);
  });

  it('cannot be claimed once the waiter closed it, and wakes a waiter still listening', async () => {
    const s = slot();
    const woken = s.claimed();
    s.close();
    await expect(woken).resolves.toBeUndefined();
    expect(s.claim()).toBe(false);
    await expect(s.handed()).resolves.toBe(false);
  });

  it('stays claimed when the waiter closes mid hand-off, so the outcome still counts', async () => {
    const s = slot();
    s.claim();
    s.close();
    s.settle(true);
    await expect(s.handed()).resolves.toBe(true);
  });
});
