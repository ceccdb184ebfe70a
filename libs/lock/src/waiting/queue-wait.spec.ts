import type { WakeListener } from './channel-listener';
import { LocalQueue } from './local-queue';
import type { QueuePlan } from './queue-plan';
import { acquireInQueue } from './queue-wait';
import type { WakeSubscriber } from './wake-subscriber';

// The head's side alone, with the clock and the process's holder played by the spec: its listener
// sleeps until interrupted (the time the wait is given is the spec's to run out), and its Redis
// attempts find the lock held.
const listener: WakeListener = {
  mark: () => undefined,
  take: () => undefined,
  close: () => undefined,
  wait: (_ms, interrupt) => (interrupt ?? new Promise<never>(() => undefined)).then(() => 'woken' as const),
};
const wake = { isListening: () => true, listen: () => Promise.resolve(listener) } as unknown as WakeSubscriber;

describe('acquireInQueue', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('takes a hand-off that lands as its time runs out, rather than leave the lock handed to no one', async () => {
    const queue = new LocalQueue();
    let heldHere = true;
    const plan: QueuePlan = {
      lineKey: 'lock:{r}',
      channel: 'lock:{r}:wake:p',
      owner: 'w',
      kind: 'owner-checked',
      waitMs: 100,
      skipLine: false,
      reenter: () => Promise.reject(new Error('not reentrant')),
      attempt: () => Promise.resolve({ acquired: false, holderTtlMs: 1000 }),
      claim: () => Promise.resolve(true),
      leave: () => Promise.resolve(),
      handoff: { kind: 'owner-checked', owner: 'w', leaseMs: 10_000 },
      heldHere: () => heldHere,
    };
    const answer = acquireInQueue(queue, wake, plan);
    await jest.advanceTimersByTimeAsync(0);
    // The holder here releases for real: its release queues the head's offered entry, heartbeat fresh.
    const offer = queue.offers.take('lock:{r}', 'owner-checked')!;
    heldHere = false;
    offer.settled(true);
    queue.releasedHere('lock:{r}');
    await jest.advanceTimersByTimeAsync(100); // the head sleeps on its fresh heartbeat; its time runs out
    // Another holder of the process, handed the lock within its run, passes it on right then.
    const slot = queue.claimable('lock:{r}', 'owner-checked')!;
    expect(slot.claim()).toBe(true);
    slot.settle(true, { runOwner: 'run' });
    await expect(answer).resolves.toMatchObject({ acquired: true, handedOff: true, runOwner: 'run' });
  });
});
