import type { GrabAnswer } from '@app/contract';
import { OrderProbe, orderProbe, STRATEGY, users } from './support/orders';
import { waitFor } from '../../tools/stack/servers/child';

jest.setTimeout(300_000);

const SALE = 200;
const CONNECTIONS = 48;
const RESETS = 4;

/** 48 buyers in a loop, each a fresh user per grab, every answer kept, until stopped. */
function startLoad(probe: OrderProbe, couponId: number, prefix: string) {
  const answers: GrabAnswer[] = [];
  let stopped = false;
  const workers = Array.from({ length: CONNECTIONS }, async (_, w) => {
    while (!stopped) {
      const [userId] = users(`${prefix}-${w}`, 1);
      answers.push(await probe.api.grab(couponId, userId, { strategy: STRATEGY }));
    }
  });
  return {
    answers,
    stop: async () => {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

describe('reset while redis-stream orders flow', () => {
  const probe = orderProbe(beforeAll);

  it(`${RESETS} resets under load at ${CONNECTIONS} connections: no old order in the new sale, every later 202 granted, every sale exact`, async () => {
    const coupon = await probe.api.createCoupon({ stock: SALE });
    const before: string[] = [];
    const rounds: Record<string, number>[] = [];
    for (let round = 1; round <= RESETS; round += 1) {
      const load = startLoad(probe, coupon.id, `r${round}`);
      const accepted = () => load.answers.filter((a) => a.status === 202);
      // Orders flowing, a part of them persisted: then the reset.
      await waitFor('half the sale accepted', () => Promise.resolve(accepted().length >= SALE / 2), 60_000, 10);
      const beganAt = Date.now();
      await probe.api.resetCoupon(coupon.id, { stock: SALE });
      const returnedAt = Date.now();
      // The new sale sells out under the same load: every buyer has seen it sold out since.
      const soldOutAfter = () =>
        load.answers.filter((a) => a.sentAt > returnedAt && a.code === 'STOCK.SOLD_OUT').length;
      await waitFor('the new sale sold out', () => Promise.resolve(soldOutAfter() >= CONNECTIONS), 60_000, 10);
      await load.stop();
      await probe.drained(coupon.id);

      before.push(
        ...accepted()
          .filter((a) => a.answeredAt < beganAt)
          .map((a) => a.userId),
      );
      const after = accepted()
        .filter((a) => a.answeredAt > returnedAt)
        .map((a) => a.userId);
      const granted = new Set((await probe.api.grants(coupon.id)).map((g) => g.userId));
      const { audit, redisCounter } = await probe.figures(coupon.id);
      rounds.push({
        round,
        oldOrdersGranted: before.filter((u) => granted.has(u)).length,
        acceptedAfterWithoutGrant: after.filter((u) => !granted.has(u)).length,
        grants: audit.grants,
        stock: audit.stock,
        lostUpdates: audit.lostUpdates,
        redisCounter: redisCounter ?? -1,
      });
      // A quiet reset between rounds: the next round starts on a fresh sale with nothing in flight.
      if (round < RESETS) await probe.api.resetCoupon(coupon.id, { stock: SALE });
    }
    expect(rounds).toEqual(
      rounds.map((_, i) => ({
        round: i + 1,
        oldOrdersGranted: 0,
        acceptedAfterWithoutGrant: 0,
        grants: SALE,
        stock: 0,
        lostUpdates: 0,
        redisCounter: 0,
      })),
    );
  });
});
