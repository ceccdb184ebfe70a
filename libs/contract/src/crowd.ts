import type { ApiClient } from './api-client';
import type { CallAnswer } from './call-answer';
import type { RoomTicket, TicketState } from './room';

/** A crowd at T0: `buyers` arriving one every `everyMs`, each grabbing once (through the room, if `room`). */
export interface CrowdOptions {
  readonly buyers: number;
  readonly everyMs: number;
  readonly strategy: string;
  readonly workMs: number;
  /** Through the coupon's room, whose admission window this is. */
  readonly room?: { readonly windowMs: number };
  /** Tells apart the users of one crowd from another's (`<label>-<index>`). */
  readonly label: string;
}

/** What one buyer of a crowd saw; times in ms since the epoch (this machine's clock). */
export interface CrowdBuyer {
  readonly index: number;
  readonly scheduledAt: number;
  /** When this client actually sent the first request (its own timer lag makes it later). */
  sentAt?: number;
  /** The first answer: the join's with a room, the grab's without. */
  firstAt?: number;
  firstStatus?: number;
  /** The ticket's number: its place in arrival order. */
  ticket?: number;
  /** When the room admitted it (Redis's clock, from the `until` its poll told, less the window). */
  admittedAt?: number;
  polls: number;
  /** `200`, `409 STOCK.SOLD_OUT`, `sold-out`, `expired`, …; and when it was known. */
  outcome?: string;
  outcomeAt?: number;
}

type CrowdApi = Pick<ApiClient, 'joinRoom' | 'ticketState' | 'grab' | 'strategies'>;

const named = (a: CallAnswer) => `${a.status}${a.code ? ` ${a.code}` : ''}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Runs the crowd open loop: each buyer starts at its scheduled time, whatever happened to the ones
 * before it, as a crowd at T0 does (a closed loop, sending only after an answer, would slow down
 * with the server and hide its queue). With a room, a buyer joins, polls at the room's estimate
 * (every 0.5 to 3 s), and grabs with its ticket once admitted.
 */
export async function runCrowd(api: CrowdApi, couponId: number, o: CrowdOptions): Promise<CrowdBuyer[]> {
  // Connections opened before T0, as a crowd's browsers have theirs: the run times the stack, not TCP set-up.
  await Promise.all(Array.from({ length: Math.min(200, o.buyers) }, () => api.strategies()));
  const startAt = Date.now() + 200;
  const buyers: CrowdBuyer[] = Array.from({ length: o.buyers }, (_, index) => ({
    index,
    scheduledAt: startAt + index * o.everyMs,
    polls: 0,
  }));
  const grab = (b: CrowdBuyer, ticket?: string) =>
    api.grab(couponId, `${o.label}-${b.index}`, { strategy: o.strategy, workMs: o.workMs, ticket });
  const first = (b: CrowdBuyer, a: CallAnswer) => {
    [b.sentAt, b.firstAt, b.firstStatus] = [a.sentAt, a.answeredAt, a.status];
    return a;
  };
  const inRoom = async (b: CrowdBuyer): Promise<string> => {
    const join = first(b, await api.joinRoom(couponId, `${o.label}-${b.index}`));
    if (join.status !== 202) return named(join);
    const { ticket, etaMs } = join.body as unknown as RoomTicket;
    b.ticket = Number(ticket.split('-')[0]);
    for (let waitMs = etaMs; ;) {
      await pause(Math.min(3000, Math.max(500, waitMs)));
      b.polls++;
      const poll = await api.ticketState(couponId, ticket);
      if (poll.status !== 200) return `poll ${named(poll)}`;
      const state = poll.body as unknown as TicketState;
      if (state.state !== 'waiting' && state.state !== 'admitted') return state.state;
      if (state.state === 'waiting') waitMs = state.etaMs;
      else {
        b.admittedAt = state.until - (o.room?.windowMs ?? 0);
        return named(await grab(b, ticket));
      }
    }
  };
  await Promise.all(
    buyers.map(async (b) => {
      await pause(b.scheduledAt - Date.now());
      b.outcome = o.room ? await inRoom(b) : named(first(b, await grab(b)));
      b.outcomeAt = Date.now();
    }),
  );
  return buyers;
}
