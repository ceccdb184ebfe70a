import { probeClient } from '../../../../test/redis/lock-kit';
import { SoldOutError } from '@app/stock';
import type { TicketState } from '@app/contract';
import { RoomDesk, type RoomSource } from './room-desk';
import { RoomNotAdmittedError, RoomNotFoundError, TicketNotFoundError } from './room.errors';

const redis = probeClient();
let couponId = 2_000_000 + Math.floor(Math.random() * 1_000_000);
afterAll(() => redis.quit());
beforeEach(() => {
  couponId += 1;
});

/** A room over a stand-in for the database (only the settings' source is replaced; Redis is real). */
function room(admitPerSec: number, windowMs: number, stock: number) {
  const loads: number[] = [];
  const source = (id: number): Promise<RoomSource> => {
    loads.push(id);
    return Promise.resolve({ settings: { admitPerSec, windowMs }, stock });
  };
  return { desk: new RoomDesk(redis, source), loads };
}

/** Polls until `done` holds of the ticket's state (observed state, no fixed sleep), at most 10 s. */
async function until(desk: RoomDesk, ticket: string, done: (s: TicketState) => boolean): Promise<TicketState> {
  const giveUpAt = Date.now() + 10_000;
  for (;;) {
    const state = await desk.state(couponId, ticket);
    if (done(state) || Date.now() > giveUpAt) return state;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('room scripts on a real Redis', () => {
  it('room-join: tickets in arrival order, the same one again for the same user; loaded once', async () => {
    const { desk, loads } = room(1, 60_000, 10);
    const a = await desk.join(couponId, 'a');
    const b = await desk.join(couponId, 'b');
    const c = await desk.join(couponId, 'c');
    expect([a, b, c].map((t) => t.ticket.split('-')[0])).toEqual(['1', '2', '3']);
    expect(a).toMatchObject({ position: 1, etaMs: 0 }); // admitted at once: the room was idle
    expect(b.position).toBe(1);
    expect(c.position).toBe(2);
    expect(c.etaMs).toBeGreaterThan(b.etaMs);
    expect(await desk.join(couponId, 'b')).toMatchObject({ ticket: b.ticket });
    expect(loads).toEqual([couponId]);
    expect(await desk.state(couponId, a.ticket)).toMatchObject({ state: 'admitted' });
    expect(await desk.state(couponId, c.ticket)).toMatchObject({ state: 'waiting', position: 2 });
    expect(await desk.figures(couponId)).toEqual({ joined: 3, admitted: 1, expired: 0 });
  });

  it('room-poll: admissions in ticket order, never closer than 1000 / admitPerSec ms apart', async () => {
    const { desk } = room(40, 60_000, 100);
    const tickets = [];
    for (let i = 0; i < 12; i++) tickets.push((await desk.join(couponId, `u${i}`)).ticket);
    const admittedAt: number[] = [];
    for (const ticket of tickets) {
      const state = await until(desk, ticket, (s) => s.state === 'admitted');
      expect(state.state).toBe('admitted');
      admittedAt.push((state as { until: number }).until - 60_000);
    }
    const gaps = admittedAt.slice(1).map((t, i) => t - admittedAt[i]);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(24); // 25 ms, floored to whole ms
    expect(await desk.figures(couponId)).toEqual({ joined: 12, admitted: 12, expired: 0 });
  });

  it('room-advance: never more admitted than units left; an expired admission lets the next in', async () => {
    const { desk } = room(1000, 300, 1);
    const a = await desk.join(couponId, 'a');
    const b = await desk.join(couponId, 'b');
    expect(await desk.state(couponId, a.ticket)).toMatchObject({ state: 'admitted' });
    expect(await desk.state(couponId, b.ticket)).toMatchObject({ state: 'waiting', position: 1 });
    expect((await until(desk, a.ticket, (s) => s.state !== 'admitted')).state).toBe('expired');
    expect(await desk.state(couponId, b.ticket)).toMatchObject({ state: 'admitted' });
    expect(await desk.figures(couponId)).toEqual({ joined: 2, admitted: 2, expired: 1 });
  });

  it('room-check and room-settle: only an admitted ticket passes; its grant may sell the room out', async () => {
    const { desk } = room(1000, 60_000, 1);
    const a = await desk.join(couponId, 'a');
    const b = await desk.join(couponId, 'b');
    await expect(desk.check(couponId, 'b')).rejects.toMatchObject({ code: 'ROOM.NOT_ADMITTED', position: 1 });
    await expect(desk.check(couponId, 'stranger')).rejects.toMatchObject({ position: 0 });
    await expect(desk.check(couponId, 'a')).rejects.toBeInstanceOf(RoomNotAdmittedError); // no ticket
    await expect(desk.check(couponId, 'a', b.ticket)).rejects.toBeInstanceOf(RoomNotAdmittedError); // not hers
    const forged = `${a.ticket.split('-')[0]}-0000000000000000`;
    await expect(desk.check(couponId, 'a', forged)).rejects.toBeInstanceOf(RoomNotAdmittedError);
    const number = await desk.check(couponId, 'a', a.ticket);
    expect(number).toBe(1);
    await desk.settle(couponId, number, 'granted');
    await desk.settle(couponId, number, 'granted'); // settled once only: one unit
    expect(await desk.state(couponId, b.ticket)).toEqual({ state: 'sold-out' });
    await expect(desk.check(couponId, 'b', b.ticket)).rejects.toBeInstanceOf(SoldOutError);
    await expect(desk.join(couponId, 'c')).rejects.toBeInstanceOf(SoldOutError);
    await expect(desk.check(couponId, 'a', a.ticket)).rejects.toBeInstanceOf(RoomNotAdmittedError); // used
    expect(await desk.state(couponId, a.ticket)).toMatchObject({ state: 'admitted' }); // she bought
  });

  it('room-settle sold-out: a strategy that found no stock tells every waiting ticket', async () => {
    const { desk } = room(1, 60_000, 50);
    const a = await desk.join(couponId, 'a');
    const b = await desk.join(couponId, 'b');
    await desk.settle(couponId, await desk.check(couponId, 'a', a.ticket), 'sold-out');
    expect(await desk.state(couponId, b.ticket)).toEqual({ state: 'sold-out' });
    expect(await desk.state(couponId, a.ticket)).toEqual({ state: 'sold-out' });
  });

  it('an unknown ticket, a coupon without a room, and a cleared room loaded again', async () => {
    const { desk, loads } = room(5, 60_000, 3);
    const a = await desk.join(couponId, 'a');
    await expect(desk.state(couponId, `${a.ticket.split('-')[0]}-ffffffffffffffff`)).rejects.toBeInstanceOf(
      TicketNotFoundError,
    );
    await expect(desk.state(couponId, '99-ffffffffffffffff')).rejects.toBeInstanceOf(TicketNotFoundError);
    const none = new RoomDesk(redis, () => Promise.resolve({ settings: null, stock: 3 }));
    await expect(none.join(couponId + 500_000, 'a')).rejects.toBeInstanceOf(RoomNotFoundError);
    await desk.clear(couponId);
    expect((await desk.join(couponId, 'z')).ticket.split('-')[0]).toBe('1');
    expect(loads).toEqual([couponId, couponId]);
  });
});
