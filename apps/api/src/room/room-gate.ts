import { Injectable } from '@nestjs/common';
import type { RoomFigures, RoomSettings, RoomTicket, TicketState } from '@app/contract';
import { RoomDesk } from '@app/redis-stock';
import { CouponsService, SoldOutError, SoldOutMemo } from '@app/stock';
import { AppRedis } from '../redis/app-redis';

/**
 * The waiting room in front of the grab. A coupon's room is fixed when the coupon is created, so
 * each replica asks the database once per coupon whether it has one: a grab of a coupon without a
 * room costs nothing more, and one with a room costs one Redis script call before the strategy.
 */
@Injectable()
export class RoomGate {
  private readonly desk: RoomDesk;
  private readonly settings = new Map<number, Promise<RoomSettings | null>>();

  constructor(
    redis: AppRedis,
    private readonly coupons: CouponsService,
    private readonly soldOut: SoldOutMemo,
  ) {
    this.desk = new RoomDesk(redis.client, (id) => this.coupons.room(id));
  }

  join(couponId: number, userId: string): Promise<RoomTicket> {
    return this.desk.join(couponId, userId);
  }

  state(couponId: number, ticket: string): Promise<TicketState> {
    return this.desk.state(couponId, ticket);
  }

  /**
   * Runs `grab` if the coupon has no room, or if the room admitted this user's ticket; then tells
   * the room what came of it (a unit sold, or none left), so it admits the next buyer or tells the
   * waiting ones the stock is gone. Any strategy runs behind it.
   */
  async grab<T>(couponId: number, userId: string, ticket: string | undefined, grab: () => Promise<T>): Promise<T> {
    // Sold out is sold out, room or not: the grab answers it from memory, as without a room.
    if (this.soldOut.isSoldOut(couponId) || !(await this.roomOf(couponId))) return grab();
    const number = await this.desk.check(couponId, userId, ticket);
    let answer: T;
    try {
      answer = await grab();
    } catch (error) {
      if (error instanceof SoldOutError) await this.desk.settle(couponId, number, 'sold-out').catch(() => undefined);
      throw error;
    }
    // The buyer has the unit whatever Redis says now; a room that missed it admits one buyer too
    // many, whose grab then finds the stock gone and tells the room.
    await this.desk.settle(couponId, number, 'granted').catch(() => undefined);
    return answer;
  }

  /** The audit's room figures, for a coupon with a room. */
  async figures(couponId: number): Promise<RoomFigures | undefined> {
    return (await this.roomOf(couponId)) ? this.desk.figures(couponId) : undefined;
  }

  /** A reset forgets the room's tickets; the next call loads it again with the new stock. */
  clear(couponId: number): Promise<void> {
    return this.desk.clear(couponId);
  }

  private roomOf(couponId: number): Promise<RoomSettings | null> {
    let known = this.settings.get(couponId);
    if (!known) {
      known = this.coupons.room(couponId).then((r) => r.settings);
      known.catch(() => this.settings.delete(couponId)); // asked again next time (not found, or down)
      this.settings.set(couponId, known);
    }
    return known;
  }
}
