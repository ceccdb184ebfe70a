import { ApiClient, type Coupon, type RoomTicket, type TicketState } from '@app/contract';
import { admin, http, testStack } from './support/stack';

jest.setTimeout(120_000);

const api = () => {
  const info = testStack();
  return new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });
};

async function roomCoupon(stock: number, admitPerSec: number, windowMs: number): Promise<Coupon> {
  return api().createCoupon({ name: `room-${Date.now()}`, stock, room: { admitPerSec, windowMs } });
}

async function join(couponId: number, userId: string): Promise<RoomTicket> {
  const answer = await api().joinRoom(couponId, userId);
  if (answer.status !== 202) throw new Error(`join answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as RoomTicket;
}

async function state(couponId: number, ticket: string): Promise<TicketState> {
  const answer = await api().ticketState(couponId, ticket);
  if (answer.status !== 200) throw new Error(`poll answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as TicketState;
}

/** Polls the ticket until its state is not `from` (observed state, no fixed sleep), at most 20 s. */
async function leaves(couponId: number, ticket: string, from: TicketState['state']): Promise<TicketState> {
  const giveUpAt = Date.now() + 20_000;
  for (;;) {
    const now = await state(couponId, ticket);
    if (now.state !== from || Date.now() > giveUpAt) return now;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a waiting room in front of the grab', () => {
  it('first come, first served at the room pace; a grab needs an admitted ticket; any strategy behind it', async () => {
    const coupon = await roomCoupon(3, 5, 60_000);
    expect(coupon.room).toEqual({ admitPerSec: 5, windowMs: 60_000 });
    const tickets: RoomTicket[] = [];
    for (let i = 1; i <= 6; i++) tickets.push(await join(coupon.id, `buyer-${i}`));
    expect(tickets.map((t) => Number(t.ticket.split('-')[0]))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(tickets[5].position).toBeGreaterThan(tickets[4].position);
    expect(await join(coupon.id, 'buyer-2')).toMatchObject({ ticket: tickets[1].ticket });

    // Not admitted: no ticket, a ticket still waiting, a ticket that is someone else's.
    const bare = await api().grab(coupon.id, 'buyer-6', { strategy: 'db-atomic' });
    expect(bare).toMatchObject({ status: 403, code: 'ROOM.NOT_ADMITTED' });
    expect(bare.body?.position).toBeGreaterThan(0);
    const stranger = await api().grab(coupon.id, 'nobody', { strategy: 'db-atomic', ticket: tickets[0].ticket });
    expect(stranger).toMatchObject({ status: 403, code: 'ROOM.NOT_ADMITTED', body: { position: 0 } });

    const admittedAt: number[] = [];
    const strategies = ['db-atomic', 'owner-checked', 'redis-lua'];
    for (let i = 0; i < 3; i++) {
      const admitted = await leaves(coupon.id, tickets[i].ticket, 'waiting');
      expect(admitted.state).toBe('admitted');
      admittedAt.push((admitted as { until: number }).until - 60_000);
      const grab = await api().grab(coupon.id, `buyer-${i + 1}`, {
        strategy: strategies[i],
        ticket: tickets[i].ticket,
      });
      expect({ status: grab.status, strategy: grab.body?.strategy }).toEqual({ status: 200, strategy: strategies[i] });
    }
    // Never ahead of 5 a second: 200 ms apart at least (floored to whole ms by the room).
    for (let i = 1; i < 3; i++) expect(admittedAt[i] - admittedAt[i - 1]).toBeGreaterThanOrEqual(199);

    // The stock is gone: every waiting ticket learns it at its next poll, and nobody else joins.
    for (const t of tickets.slice(3)) expect(await state(coupon.id, t.ticket)).toEqual({ state: 'sold-out' });
    expect(await api().joinRoom(coupon.id, 'late')).toMatchObject({ status: 409, code: 'STOCK.SOLD_OUT' });
    const audit = await api().audit(coupon.id);
    expect(audit).toMatchObject({ grants: 3, stock: 0, oversold: 0, room: { joined: 6, admitted: 3, expired: 0 } });
  });

  it('an admitted buyer who does not grab within the window expires, and the room admits the next', async () => {
    const coupon = await roomCoupon(1, 100, 1_000);
    const first = await join(coupon.id, 'slow');
    const second = await join(coupon.id, 'next');
    expect(await state(coupon.id, first.ticket)).toMatchObject({ state: 'admitted' });
    expect(await state(coupon.id, second.ticket)).toMatchObject({ state: 'waiting', position: 1 });
    expect(await leaves(coupon.id, first.ticket, 'admitted')).toEqual({ state: 'expired' });
    expect(await state(coupon.id, second.ticket)).toMatchObject({ state: 'admitted' });
    const late = await api().grab(coupon.id, 'slow', { strategy: 'watchdog', ticket: first.ticket });
    expect(late).toMatchObject({ status: 403, code: 'ROOM.NOT_ADMITTED' });
    const grab = await api().grab(coupon.id, 'next', { strategy: 'watchdog', ticket: second.ticket });
    expect(grab.status).toBe(200);
    const audit = await api().audit(coupon.id);
    expect(audit).toMatchObject({ grants: 1, stock: 0, room: { joined: 2, admitted: 2, expired: 1 } });
  });

  it('bad input: 400 REQUEST.INVALID, 404 for no room or no such ticket, and nothing changes', async () => {
    const info = testStack();
    const create = (room: unknown) => http('POST', `${info.nginxUrl}/coupons`, { stock: 5, room }, admin(info));
    for (const room of [{ admitPerSec: 0 }, { admitPerSec: 5, windowMs: 999 }, { admitPerSec: 5, x: 1 }, 'fast', {}]) {
      const answer = await create(room);
      expect({ room, status: answer.status, code: (answer.body as { code?: string }).code }).toEqual({
        room,
        status: 400,
        code: 'REQUEST.INVALID',
      });
    }
    const plain = await api().createCoupon({ stock: 2 });
    expect(plain).not.toHaveProperty('room');
    expect(await api().joinRoom(plain.id, 'a')).toMatchObject({ status: 404, code: 'ROOM.NOT_FOUND' });
    expect(await api().joinRoom(2_147_483_000, 'a')).toMatchObject({ status: 404, code: 'COUPON.NOT_FOUND' });
    // A coupon without a room grabs as before; a ticket given to it changes nothing.
    expect((await api().grab(plain.id, 'a', { strategy: 'db-atomic' })).status).toBe(200);

    const coupon = await roomCoupon(2, 10, 10_000);
    expect(coupon.room).toEqual({ admitPerSec: 10, windowMs: 10_000 });
    const mine = await join(coupon.id, 'a');
    expect(await api().joinRoom(coupon.id, 'bad user!')).toMatchObject({ status: 400, code: 'REQUEST.INVALID' });
    expect(await api().ticketState(coupon.id, 'nope')).toMatchObject({ status: 400, code: 'REQUEST.INVALID' });
    const unknown = '7-0123456789abcdef';
    expect(await api().ticketState(coupon.id, unknown)).toMatchObject({ status: 404, code: 'TICKET.NOT_FOUND' });
    const badTicket = await http('POST', `${info.nginxUrl}/coupons/${coupon.id}/grab`, { userId: 'a', ticket: 5 });
    expect(badTicket).toMatchObject({ status: 400, body: { code: 'REQUEST.INVALID' } });
    expect(await api().audit(coupon.id)).toMatchObject({ grants: 0, stock: 2, room: { joined: 1 } });
    expect((await join(coupon.id, 'a')).ticket).toBe(mine.ticket);
  });
});
