import type { GrabAnswer } from '@app/contract';
import type { StepContext } from '../step';
import { stalledHolder } from './stalled-holder';

function fakeContext() {
  const calls: string[] = [];
  let answer!: (a: GrabAnswer) => void;
  const ctx = {
    say: (line: string) => calls.push(`say ${line}`),
    api: {
      grab: (couponId: number, user: string, options: object) => {
        calls.push(`grab ${couponId} ${user} ${JSON.stringify(options)}`);
        return new Promise<GrabAnswer>((resolve) => (answer = resolve));
      },
    },
    keys: {
      waitUntilHeld: (key: string) => {
        calls.push(`held? ${key}`);
        return Promise.resolve({ exists: true, holder: 'A', pttlMs: 300 });
      },
    },
  } as unknown as StepContext;
  return { ctx, calls, answer: (a: GrabAnswer) => answer(a) };
}

describe('stalledHolder', () => {
  it("sends A with its stall and a wait of one lease, and returns once Redis shows A's key", async () => {
    const { ctx, calls, answer } = fakeContext();
    const holder = await stalledHolder(ctx, 7, {
      user: 'u1',
      via: 'r1',
      strategy: 'fenced',
      leaseMs: 300,
      freezeMs: 1200,
    });
    expect(calls).toEqual([
      'say A on r1: lease 300 ms, freezeMs=1200',
      'grab 7 u1 {"strategy":"fenced","leaseMs":300,"freezeMs":1200,"via":"r1","waitMs":300}',
      'held? lock:{coupon:7}',
    ]);
    expect(holder.held).toMatchObject({ exists: true, holder: 'A' });
    // A's answer is still to come: the stall outlasts the lease.
    answer({ status: 200 } as GrabAnswer);
    await expect(holder.answer).resolves.toMatchObject({ status: 200 });
  });

  it('names a pause as a pause', async () => {
    const { ctx, calls } = fakeContext();
    await stalledHolder(ctx, 7, { user: 'u1', via: 'r1', strategy: 'watchdog', leaseMs: 500, pauseMs: 1500 });
    expect(calls[0]).toBe('say A on r1: lease 500 ms, pauseMs=1500');
  });
});
