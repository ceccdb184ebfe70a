import { ApiClient, type Audit, type CallAnswer, type Grant, type Hold } from '@app/contract';
import { testPort } from '../ports';
import { startChaosOffReplica, type ExtraReplica } from './support/extra-replica';
import { audit } from './support/grabs';
import { admin, createCoupon, http, testStack, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

const client = (info: StackInfo) => new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });
const outcome = (a: CallAnswer) => ({ status: a.status, code: a.code });

async function open(api: ApiClient, couponId: number, userId: string, holdMs = 60_000, naive = false): Promise<Hold> {
  const answer = await api.hold(couponId, userId, holdMs, naive ? { holds: 'naive' } : {});
  if (answer.status !== 201) throw new Error(`hold answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as Hold;
}

/** Waits until the audit says no hold of the coupon is open (the sweepers ran), at most `timeoutMs`. */
async function untilNoneHeld(info: StackInfo, couponId: number, timeoutMs = 10_000): Promise<Audit> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const figures = await audit(info, couponId);
    if (figures.held === 0 || Date.now() > giveUpAt) return figures;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const exact = (a: Audit) => a.initialStock === a.stock + (a.held ?? 0) + (a.confirmed ?? 0);

describe('holds: reserve, then confirm, cancel or expire', () => {
  it('a hold takes a unit; its confirm makes a grant; the audit accounts for every unit', async () => {
    const info = testStack();
    const api = client(info);
    const coupon = await createCoupon(info, 3);
    const plain = await audit(info, coupon.id);
    expect(plain).not.toHaveProperty('held'); // no hold yet: the audit as before

    const hold = await open(api, coupon.id, 'buyer-1');
    expect(hold).toMatchObject({ couponId: coupon.id, userId: 'buyer-1' });
    expect(hold.holdId).toMatch(/^[0-9]+$/);
    const deadline = Date.parse(hold.expiresAt);
    expect(Math.abs(deadline - (Date.now() + 60_000))).toBeLessThan(5_000);
    expect(await audit(info, coupon.id)).toMatchObject({ stock: 2, grants: 0, held: 1, confirmed: 0 });

    const confirmed = await api.confirmHold(coupon.id, hold.holdId, { userId: 'buyer-1' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ userId: 'buyer-1', strategy: 'hold' });
    const after = await audit(info, coupon.id);
    expect(after).toMatchObject({ stock: 2, grants: 1, held: 0, confirmed: 1, expired: 0, cancelled: 0, oversold: 0 });
    expect(exact(after)).toBe(true);
    // The grant is a grant like any other: the buyer's lookup finds it.
    expect((await api.grant(coupon.id, 'buyer-1')).strategy).toBe('hold');
  });

  it('a double confirm answers the same grant and makes one', async () => {
    const info = testStack();
    const api = client(info);
    const coupon = await createCoupon(info, 2);
    const hold = await open(api, coupon.id, 'twice');
    const [first, second] = await Promise.all([
      api.confirmHold(coupon.id, hold.holdId),
      api.confirmHold(coupon.id, hold.holdId),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((second.body as unknown as Grant).enteredAt).toBe((first.body as unknown as Grant).enteredAt);
    expect(await audit(info, coupon.id)).toMatchObject({ stock: 1, grants: 1, confirmed: 1, held: 0 });
  });

  it('cancel gives the unit back once; confirm after cancel is 409 HOLD.CANCELLED; cancel after confirm 409 HOLD.CONFIRMED', async () => {
    const info = testStack();
    const api = client(info);
    const coupon = await createCoupon(info, 1);
    const hold = await open(api, coupon.id, 'canceller');
    expect(outcome(await api.hold(coupon.id, 'other'))).toEqual({ status: 409, code: 'STOCK.SOLD_OUT' });

    const cancels = await Promise.all([api.cancelHold(coupon.id, hold.holdId), api.cancelHold(coupon.id, hold.holdId)]);
    expect(cancels.map((c) => c.status)).toEqual([200, 200]);
    expect(cancels[0].body).toEqual({ holdId: hold.holdId, state: 'cancelled' });
    expect(outcome(await api.confirmHold(coupon.id, hold.holdId))).toEqual({ status: 409, code: 'HOLD.CANCELLED' });
    expect(await audit(info, coupon.id)).toMatchObject({ stock: 1, held: 0, cancelled: 1, grants: 0 });

    const next = await open(api, coupon.id, 'payer');
    expect((await api.confirmHold(coupon.id, next.holdId)).status).toBe(200);
    expect(outcome(await api.cancelHold(coupon.id, next.holdId))).toEqual({ status: 409, code: 'HOLD.CONFIRMED' });
    const after = await audit(info, coupon.id);
    expect(after).toMatchObject({ stock: 0, grants: 1, confirmed: 1, cancelled: 1, oversold: 0 });
    expect(exact(after)).toBe(true);
  });

  it('an unpaid hold expires: its unit returns and is sold again; a late confirm or cancel is 409 HOLD.EXPIRED', async () => {
    const info = testStack();
    const api = client(info);
    const coupon = await createCoupon(info, 1);
    const hold = await open(api, coupon.id, 'sleeper', 300);
    const figures = await untilNoneHeld(info, coupon.id);
    expect(figures).toMatchObject({ stock: 1, held: 0, expired: 1, grants: 0 });
    expect(outcome(await api.confirmHold(coupon.id, hold.holdId))).toEqual({ status: 409, code: 'HOLD.EXPIRED' });
    expect(outcome(await api.cancelHold(coupon.id, hold.holdId))).toEqual({ status: 409, code: 'HOLD.EXPIRED' });
    const again = await open(api, coupon.id, 'second-buyer');
    expect((await api.confirmHold(coupon.id, again.holdId)).status).toBe(200);
    const after = await audit(info, coupon.id);
    expect(after).toMatchObject({ stock: 0, grants: 1, confirmed: 1, expired: 1, oversold: 0 });
    expect(exact(after)).toBe(true);
  });

  it('one open hold per buyer, none for a buyer with a grant (409 GRANT.DUPLICATE)', async () => {
    const info = testStack();
    const api = client(info);
    const coupon = await createCoupon(info, 5);
    const hold = await open(api, coupon.id, 'greedy');
    expect(outcome(await api.hold(coupon.id, 'greedy'))).toEqual({ status: 409, code: 'GRANT.DUPLICATE' });
    await api.confirmHold(coupon.id, hold.holdId);
    const again = await api.hold(coupon.id, 'greedy');
    expect(outcome(again)).toEqual({ status: 409, code: 'GRANT.DUPLICATE' });
    expect(again.body?.grant).toMatchObject({ userId: 'greedy' });
    expect(await audit(info, coupon.id)).toMatchObject({ stock: 4, grants: 1, held: 0, confirmed: 1 });
  });

  it('hostile calls get a 4xx JSON error and change nothing', async () => {
    const info = testStack();
    const api = client(info);
    const coupon = await createCoupon(info, 2);
    const other = await createCoupon(info, 1);
    const hold = await open(api, coupon.id, 'owner');
    const foreign = await open(api, other.id, 'stranger');
    const before = await audit(info, coupon.id);
    const base = `${info.nginxUrl}/coupons/${coupon.id}/holds`;
    const cases: [string, string, unknown, number, string][] = [
      ['unknown hold', `${base}/999999999/confirm`, undefined, 404, 'HOLD.NOT_FOUND'],
      ["another coupon's hold", `${base}/${foreign.holdId}/confirm`, undefined, 404, 'HOLD.NOT_FOUND'],
      ["another coupon's hold (cancel)", `${base}/${foreign.holdId}/cancel`, undefined, 404, 'HOLD.NOT_FOUND'],
      ["another user's hold", `${base}/${hold.holdId}/confirm`, { userId: 'thief' }, 404, 'HOLD.NOT_FOUND'],
      ["another user's hold (cancel)", `${base}/${hold.holdId}/cancel`, { userId: 'thief' }, 404, 'HOLD.NOT_FOUND'],
      ['hold id not a number', `${base}/abc/confirm`, undefined, 400, 'REQUEST.INVALID'],
      ['hold id negative', `${base}/-1/cancel`, undefined, 400, 'REQUEST.INVALID'],
      ['bad userId on confirm', `${base}/${hold.holdId}/confirm`, { userId: 'a b' }, 400, 'REQUEST.INVALID'],
      ['extra property on confirm', `${base}/${hold.holdId}/confirm`, { pay: 1 }, 400, 'REQUEST.INVALID'],
      ['array body on cancel', `${base}/${hold.holdId}/cancel`, '[1]', 400, 'REQUEST.INVALID'],
      ['unknown query on cancel', `${base}/${hold.holdId}/cancel?raceExpiry=1`, undefined, 400, 'REQUEST.INVALID'],
      ['raceExpiry not 1', `${base}/${hold.holdId}/confirm?raceExpiry=yes`, undefined, 400, 'REQUEST.INVALID'],
      ['no body on open', base, undefined, 400, 'REQUEST.INVALID'],
      ['holdMs under 100', base, { userId: 'x', holdMs: 99 }, 400, 'REQUEST.INVALID'],
      ['holdMs over an hour', base, { userId: 'x', holdMs: 3_600_001 }, 400, 'REQUEST.INVALID'],
      ['holdMs as text', base, { userId: 'x', holdMs: '500' }, 400, 'REQUEST.INVALID'],
      ['holdMs fractional', base, { userId: 'x', holdMs: 150.5 }, 400, 'REQUEST.INVALID'],
      ['unknown property on open', base, { userId: 'x', price: 0 }, 400, 'REQUEST.INVALID'],
      ['holds not naive', `${base}?holds=fast`, { userId: 'x' }, 400, 'REQUEST.INVALID'],
      ['unknown coupon', `${info.nginxUrl}/coupons/999999999/holds`, { userId: 'x' }, 404, 'COUPON.NOT_FOUND'],
    ];
    const seen = [];
    for (const [name, url, body] of cases) {
      const res = await http<{ code?: string }>('POST', url, body);
      seen.push([name, res.status, res.body.code]);
    }
    expect(seen).toEqual(cases.map(([name, , , status, code]) => [name, status, code]));
    expect(await audit(info, coupon.id)).toEqual(before);
    expect(await audit(info, other.id)).toMatchObject({ stock: 0, held: 1 });
    // The owner's own calls still work after all that.
    expect((await api.confirmHold(coupon.id, hold.holdId, { userId: 'owner' })).status).toBe(200);
  });

  it('reset deletes the holds with the grants', async () => {
    const info = testStack();
    const api = client(info);
    const coupon = await createCoupon(info, 2);
    await open(api, coupon.id, 'left-open');
    const res = await http('POST', `${info.nginxUrl}/coupons/${coupon.id}/reset`, { stock: 2 }, admin(info));
    expect(res.status).toBe(200);
    expect(await audit(info, coupon.id)).toMatchObject({ stock: 2, grants: 0 });
    expect(await audit(info, coupon.id)).not.toHaveProperty('held');
  });
});

describe('holds: a confirm racing the expiry', () => {
  it('the naive path sells the unit twice, every time; the exact path refuses the late confirm', async () => {
    const info = testStack();
    const api = client(info);
    for (const naive of [true, false]) {
      const coupon = await createCoupon(info, 1);
      const hold = await open(api, coupon.id, 'late-payer', 400, naive);
      // The payment starts before the deadline and lasts until the expiry has run on the hold.
      const confirm = await api.confirmHold(coupon.id, hold.holdId, { raceExpiry: true });
      const figures = await untilNoneHeld(info, coupon.id);
      const resold = await open(api, coupon.id, 'next-buyer');
      expect((await api.confirmHold(coupon.id, resold.holdId)).status).toBe(200);
      const after = await audit(info, coupon.id);
      if (naive) {
        expect(confirm.status).toBe(200);
        expect(figures.stock).toBeGreaterThanOrEqual(1); // the confirmed unit came back too
        expect(after).toMatchObject({ grants: 2, confirmed: 2, oversold: 1 });
        expect(exact(after)).toBe(false);
      } else {
        expect(outcome(confirm)).toEqual({ status: 409, code: 'HOLD.EXPIRED' });
        expect(after).toMatchObject({ stock: 0, grants: 1, confirmed: 1, expired: 1, oversold: 0 });
        expect(exact(after)).toBe(true);
      }
    }
  });

  describe('where chaos is off', () => {
    let replica: ExtraReplica;
    beforeAll(async () => {
      replica = await startChaosOffReplica(testStack(), testPort(23197));
    });
    afterAll(() => replica?.stop());

    it('holds=naive and raceExpiry are refused with 403 CHAOS.DISABLED, and change nothing', async () => {
      const info = testStack();
      const api = client(info).at(replica.url);
      const coupon = await createCoupon(info, 1);
      expect(outcome(await api.hold(coupon.id, 'c', 1000, { holds: 'naive' }))).toEqual({
        status: 403,
        code: 'CHAOS.DISABLED',
      });
      const hold = await open(api, coupon.id, 'c');
      expect(outcome(await api.confirmHold(coupon.id, hold.holdId, { raceExpiry: true }))).toEqual({
        status: 403,
        code: 'CHAOS.DISABLED',
      });
      expect(await audit(info, coupon.id)).toMatchObject({ stock: 0, held: 1, grants: 0 });
    });
  });
});
