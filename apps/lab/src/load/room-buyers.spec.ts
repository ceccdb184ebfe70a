import type { ApiClient, CallAnswer, GrabAnswer, RoomCounts } from '@app/contract';
import { RoomBuyers } from './room-buyers';

const answer = (status: number, body?: Record<string, unknown>, code?: string): CallAnswer => ({
  status,
  code,
  body,
  replica: 'api-1',
  sentAt: 0,
  answeredAt: 1,
});

/** A room of the API's answers, scripted per user: its join's, then each poll's in turn, then its grab's. */
function fakeApi(script: Record<string, { join: CallAnswer; polls?: CallAnswer[]; grab?: CallAnswer }>) {
  const seen: RoomCounts[] = [];
  const polls = new Map<string, CallAnswer[]>();
  const api = {
    joinRoom: (_: number, userId: string) => {
      polls.set(`t-${userId}`, [...(script[userId].polls ?? [])]);
      return Promise.resolve(
        script[userId].join.status === 202
          ? { ...script[userId].join, body: { ticket: `t-${userId}`, position: 1, etaMs: 0 } }
          : script[userId].join,
      );
    },
    ticketState: (_: number, ticket: string) => {
      seen.push(buyers.snapshot());
      return Promise.resolve(polls.get(ticket)!.shift()!);
    },
    grab: (_: number, userId: string, options: { ticket?: string }) => {
      seen.push(buyers.snapshot());
      expect(options.ticket).toBe(`t-${userId}`);
      return Promise.resolve({ userId, ...script[userId].grab! });
    },
  } as unknown as ApiClient;
  const sunk: GrabAnswer[] = [];
  const buyers = new RoomBuyers(api, 1, { strategy: 'watchdog' }, new AbortController().signal, (_, a) => sunk.push(a));
  return { buyers, seen, sunk };
}

const waiting = answer(200, { state: 'waiting', position: 1, etaMs: 0 });

describe('RoomBuyers', () => {
  it('moves a buyer from waiting to admitted to granted, and tallies its grab', async () => {
    const { buyers, seen, sunk } = fakeApi({
      a: { join: answer(202), polls: [waiting, answer(200, { state: 'admitted', until: 9 })], grab: answer(200) },
    });
    await buyers.buy('a');
    // At its polls it waited; while its grab was on the way it was admitted.
    expect(seen).toEqual([
      { waiting: 1, admitted: 0, granted: 0, 'sold-out': 0 },
      { waiting: 1, admitted: 0, granted: 0, 'sold-out': 0 },
      { waiting: 0, admitted: 1, granted: 0, 'sold-out': 0 },
    ]);
    expect(buyers.snapshot()).toEqual({ waiting: 0, admitted: 0, granted: 1, 'sold-out': 0 });
    expect(sunk.map((a) => [a.status, a.code])).toEqual([[200, undefined]]);
  });

  it("counts as sold out a join refused, the room's sold-out at a poll, and a grab refused", async () => {
    const { buyers, sunk } = fakeApi({
      late: { join: answer(409, undefined, 'STOCK.SOLD_OUT') },
      told: { join: answer(202), polls: [answer(200, { state: 'sold-out' })] },
      beaten: {
        join: answer(202),
        polls: [answer(200, { state: 'admitted', until: 9 })],
        grab: answer(409, undefined, 'STOCK.SOLD_OUT'),
      },
    });
    await Promise.all(['late', 'told', 'beaten'].map((u) => buyers.buy(u)));
    expect(buyers.snapshot()).toEqual({ waiting: 0, admitted: 0, granted: 0, 'sold-out': 3 });
    // The room's own word is tallied under its own code, never as a 200.
    expect(sunk.map((a) => `${a.userId} ${a.status} ${a.code}`).sort()).toEqual([
      'beaten 409 STOCK.SOLD_OUT',
      'late 409 STOCK.SOLD_OUT',
      'told 200 room sold-out',
    ]);
  });
});
