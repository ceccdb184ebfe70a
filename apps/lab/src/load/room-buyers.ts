import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ApiClient,
  BuyerState,
  CallAnswer,
  GrabAnswer,
  GrabOptions,
  RoomCounts,
  RoomTicket,
  TicketState,
} from '@app/contract';

/** A waiting buyer asks again after the room's estimate, within these bounds (a poll is a Redis script call). */
const POLL_MS = { min: 250, max: 2_000 } as const;

/** Where a buyer's answers go: the load's tally, by replica and code. */
export type AnswerSink = (userId: string, answer: GrabAnswer) => void;

/**
 * A load's buyers through the coupon's waiting room, as a person's browser goes: join, wait at the
 * room's estimate, grab with the ticket once admitted. Keeps how many buyers are in each state.
 */
export class RoomBuyers {
  private readonly counts: RoomCounts = { waiting: 0, admitted: 0, granted: 0, 'sold-out': 0 };

  constructor(
    private readonly api: ApiClient,
    private readonly couponId: number,
    private readonly grabOptions: GrabOptions,
    private readonly signal: AbortSignal,
    private readonly sink: AnswerSink,
  ) {}

  snapshot(): RoomCounts {
    return { ...this.counts };
  }

  /** One buyer, from its join to its last answer; a cancelled run leaves it where it was. */
  async buy(userId: string): Promise<void> {
    let state: BuyerState = 'waiting';
    this.counts.waiting += 1;
    const move = (next: BuyerState) => {
      this.counts[state] -= 1;
      this.counts[next] += 1;
      state = next;
    };
    const ended = await this.wait(userId, () => move('admitted')).catch(() => undefined);
    if (ended && !this.signal.aborted) {
      this.sink(userId, ended);
      // The room's own refusal comes in a 200 (a poll), with its code.
      const granted = (ended.status === 200 || ended.status === 202) && ended.code === undefined;
      move(granted ? 'granted' : 'sold-out');
    }
  }

  /** The answer that ends this buyer's turn: its grab's, or the room's refusal (joining or polling). */
  private async wait(userId: string, admitted: () => void): Promise<GrabAnswer> {
    const join = await this.api.joinRoom(this.couponId, userId, this.signal);
    if (join.status !== 202) return { userId, ...join };
    const { ticket, etaMs } = join.body as unknown as RoomTicket;
    for (let waitMs = etaMs; ;) {
      await sleep(Math.min(POLL_MS.max, Math.max(POLL_MS.min, waitMs)), undefined, { signal: this.signal });
      const poll = await this.api.ticketState(this.couponId, ticket, this.signal);
      if (poll.status !== 200) return { userId, ...poll };
      const ticketState = poll.body as unknown as TicketState;
      if (ticketState.state === 'waiting') waitMs = ticketState.etaMs;
      else if (ticketState.state !== 'admitted') return { userId, ...roomSaid(poll, ticketState.state) };
      else {
        admitted();
        return this.api.grab(this.couponId, userId, { ...this.grabOptions, ticket }, this.signal);
      }
    }
  }
}

/** The room's own refusal (`sold-out`, `expired`): tallied under its own code beside the grabs' answers. */
function roomSaid(poll: CallAnswer, state: string): CallAnswer {
  return { ...poll, code: `room ${state}` };
}
