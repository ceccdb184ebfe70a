import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RoomFigures, RoomSettings, RoomTicket, TicketState } from '@app/contract';
import { SoldOutError } from '@app/stock';
import { redisCall } from '../counter-loading';
import { defineRoomCommands, roomKeys } from './room-commands';
import { RoomNotAdmittedError, RoomNotFoundError, TicketNotFoundError } from './room.errors';

/** What the database says of a coupon's room: its settings (null: it has none) and the stock left. */
export interface RoomSource {
  readonly settings: RoomSettings | null;
  readonly stock: number;
}

/** A ticket as the room's scripts know it: its number (the arrival order) and its secret. */
export interface ParsedTicket {
  readonly number: number;
  readonly secret: string;
}

export function parseTicket(ticket: string): ParsedTicket {
  const dash = ticket.indexOf('-');
  return { number: Number(ticket.slice(0, dash)), secret: ticket.slice(dash + 1) };
}

/**
 * A coupon's waiting room in Redis, one script call per join, poll or check: tickets in arrival
 * order, admitted at the room's pace while units are left. The settings live in the database;
 * a room Redis does not have (first use, a restart, a reset) is loaded from it once.
 */
export class RoomDesk {
  constructor(
    private readonly redis: Redis,
    private readonly source: (couponId: number) => Promise<RoomSource>,
  ) {
    defineRoomCommands(redis);
  }

  async join(couponId: number, userId: string): Promise<RoomTicket> {
    const secret = randomBytes(8).toString('hex');
    const reply = await this.loaded(couponId, () => this.redis.roomJoin(...roomKeys(couponId), userId, secret));
    if (reply[0] === -1) throw new SoldOutError(couponId);
    const [number, ticketSecret, position, etaMs] = reply as [number, string, number, number];
    return { ticket: `${number}-${ticketSecret}`, position, etaMs };
  }

  async state(couponId: number, ticket: string): Promise<TicketState> {
    const { number, secret } = parseTicket(ticket);
    const reply = await this.loaded(couponId, () => this.redis.roomPoll(...roomKeys(couponId), number, secret));
    switch (reply[0]) {
      case 0:
        return { state: 'waiting', position: reply[1], etaMs: reply[2] };
      case 1:
        return { state: 'admitted', until: reply[1] };
      case 2:
        return { state: 'sold-out' };
      case 3:
        return { state: 'expired' };
      default:
        throw new TicketNotFoundError(couponId);
    }
  }

  /** The grab's gate: the ticket's number when admitted; else 403 (with the place) or 409 sold out. */
  async check(couponId: number, userId: string, ticket?: string): Promise<number> {
    const { number, secret } = ticket ? parseTicket(ticket) : { number: 0, secret: '' };
    const reply = await this.loaded(couponId, () =>
      this.redis.roomCheck(...roomKeys(couponId), userId, String(number || ''), secret),
    );
    if (reply[0] === 1) return number;
    if (reply[0] === -1) throw new SoldOutError(couponId);
    throw new RoomNotAdmittedError(reply[1] ?? 0);
  }

  /** What an admitted ticket's grab came to: a unit sold (the ticket used), or none left. */
  async settle(couponId: number, ticket: number, outcome: 'granted' | 'sold-out'): Promise<void> {
    await redisCall(() => this.redis.roomSettle(...roomKeys(couponId), ticket, outcome));
  }

  /** The audit's room figures, as the room's scripts counted them. */
  async figures(couponId: number): Promise<RoomFigures> {
    const [room] = roomKeys(couponId);
    const [seq, admitted, expired] = await redisCall(() => this.redis.hmget(room, 'seq', 'admitted', 'expired'));
    return { joined: Number(seq ?? 0), admitted: Number(admitted ?? 0), expired: Number(expired ?? 0) };
  }

  /** Forgets the room's state (a reset): the next call loads it again from the database. */
  async clear(couponId: number): Promise<void> {
    await redisCall(() => this.redis.del(...roomKeys(couponId)));
  }

  /** Runs a script; when Redis has no such room, loads it from the database and runs it again. */
  private async loaded<T extends readonly number[] | readonly (number | string)[]>(
    couponId: number,
    run: () => Promise<T>,
  ): Promise<T> {
    const first = await redisCall(run);
    if (first[0] !== -2) return first;
    const { settings, stock } = await this.source(couponId);
    if (!settings) throw new RoomNotFoundError(couponId);
    const keys = roomKeys(couponId);
    await redisCall(() => this.redis.roomLoad(...keys, settings.admitPerSec, settings.windowMs, stock));
    return redisCall(run);
  }
}
