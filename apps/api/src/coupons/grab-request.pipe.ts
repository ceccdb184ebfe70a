import { Injectable, type PipeTransform } from '@nestjs/common';
import { TICKET } from '@app/contract';
import { RequestInvalidError } from '@app/apps-common';
import { STEP_GATE_ID } from '@app/contract';
import { USER_ID, type GrabBodyDto } from './dto/grab-body.dto';
import { CRASH_VALUES, GRAB_NUMBERS, type GrabQueryDto } from './dto/grab-query.dto';

const DIGITS = /^[0-9]{1,9}$/;
const QUERY_KEYS = new Set(['strategy', 'crash', 'nested', 'step', ...Object.keys(GRAB_NUMBERS)]);

/**
 * The grab's query, checked by hand: this is the hot path of a flash sale, where most answers are
 * "sold out" and a reflective validator would cost more than the answer itself.
 */
@Injectable()
export class GrabQueryPipe implements PipeTransform<Record<string, unknown>, GrabQueryDto> {
  transform(raw: Record<string, unknown>): GrabQueryDto {
    const unknown = Object.keys(raw).filter((k) => !QUERY_KEYS.has(k));
    if (unknown.length) throw new RequestInvalidError(`unknown query option: ${unknown.join(', ')}`);
    const query: Record<string, unknown> = {};
    for (const [name, rule] of Object.entries(GRAB_NUMBERS)) {
      const value = raw[name];
      if (value === undefined) continue;
      const n = typeof value === 'string' && DIGITS.test(value) ? Number(value) : Number.NaN;
      if (!(n >= rule.min && n <= rule.max)) {
        throw new RequestInvalidError(`${name} must be an integer from ${rule.min} to ${rule.max}`);
      }
      query[name] = n;
    }
    if (raw.strategy !== undefined) {
      if (typeof raw.strategy !== 'string') throw new RequestInvalidError('strategy must be given once');
      query.strategy = raw.strategy;
    }
    if (raw.crash !== undefined) {
      if (typeof raw.crash !== 'string' || !CRASH_VALUES.includes(raw.crash)) {
        throw new RequestInvalidError(`crash must be one of ${CRASH_VALUES.join(', ')}`);
      }
      query.crash = raw.crash;
    }
    if (raw.nested !== undefined) {
      if (raw.nested !== '1') throw new RequestInvalidError('nested must be 1');
      query.nested = '1';
    }
    if (raw.step !== undefined) {
      if (typeof raw.step !== 'string' || !STEP_GATE_ID.test(raw.step))
        throw new RequestInvalidError('step must be 1-64 characters of A-Z a-z 0-9 _ -');
      query.step = raw.step;
    }
    return query;
  }
}

export const USER_ID_MESSAGE = 'userId must be 1-64 characters of A-Z a-z 0-9 _ . : -';
export const TICKET_MESSAGE = 'ticket must be a waiting room ticket, as POST /coupons/:id/room answers it';

/** A room ticket in the path. */
@Injectable()
export class TicketPipe implements PipeTransform<string, string> {
  transform(ticket: string): string {
    if (!TICKET.test(ticket)) throw new RequestInvalidError(TICKET_MESSAGE);
    return ticket;
  }
}

/** A userId in the path. */
@Injectable()
export class UserIdPipe implements PipeTransform<string, string> {
  transform(userId: string): string {
    if (!USER_ID.test(userId)) throw new RequestInvalidError(USER_ID_MESSAGE);
    return userId;
  }
}

/** The grab's body: a JSON object with a valid userId, and a room's ticket or nothing else. */
@Injectable()
export class GrabBodyPipe implements PipeTransform<unknown, GrabBodyDto> {
  transform(body: unknown): GrabBodyDto {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new RequestInvalidError('the body must be a JSON object');
    }
    const { userId, ticket, ...rest } = body as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length) throw new RequestInvalidError(`property ${extra.join(', ')} should not exist`);
    if (typeof userId !== 'string' || !USER_ID.test(userId)) {
      throw new RequestInvalidError(USER_ID_MESSAGE);
    }
    if (ticket === undefined) return { userId };
    if (typeof ticket !== 'string' || !TICKET.test(ticket)) throw new RequestInvalidError(TICKET_MESSAGE);
    return { userId, ticket };
  }
}
