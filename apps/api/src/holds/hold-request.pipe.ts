import { Injectable, type PipeTransform } from '@nestjs/common';
import { RequestInvalidError } from '@app/apps-common';
import { HOLD_MS } from '@app/contract';
import { USER_ID } from '../coupons/dto/grab-body.dto';
import { USER_ID_MESSAGE } from '../coupons/grab-request.pipe';

/** The JSON object a body must be; an absent body is an empty one. */
function objectOf(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new RequestInvalidError('the body must be a JSON object');
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length) throw new RequestInvalidError(`property ${extra.join(', ')} should not exist`);
  return body as Record<string, unknown>;
}

function userIdOf(value: unknown): string {
  if (typeof value !== 'string' || !USER_ID.test(value)) throw new RequestInvalidError(USER_ID_MESSAGE);
  return value;
}

export interface OpenHoldBody {
  readonly userId: string;
  readonly holdMs: number;
}

/** POST /coupons/:id/holds: `{ userId, holdMs? }`. */
@Injectable()
export class OpenHoldBodyPipe implements PipeTransform<unknown, OpenHoldBody> {
  transform(raw: unknown): OpenHoldBody {
    const body = objectOf(raw ?? null, ['userId', 'holdMs']);
    const userId = userIdOf(body.userId);
    const holdMs = body.holdMs ?? HOLD_MS.default;
    if (!Number.isInteger(holdMs) || (holdMs as number) < HOLD_MS.min || (holdMs as number) > HOLD_MS.max)
      throw new RequestInvalidError(`holdMs must be an integer from ${HOLD_MS.min} to ${HOLD_MS.max}`);
    return { userId, holdMs: holdMs as number };
  }
}

/** Confirm and cancel: no body, or `{ userId }`, the hold's buyer. */
@Injectable()
export class HoldCallBodyPipe implements PipeTransform<unknown, { userId?: string }> {
  transform(raw: unknown): { userId?: string } {
    const body = objectOf(raw, ['userId']);
    return body.userId === undefined ? {} : { userId: userIdOf(body.userId) };
  }
}

/** A hold id: a positive integer in plain digits (a bigint, kept as text). */
@Injectable()
export class HoldIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!/^[1-9][0-9]{0,17}$/.test(value)) throw new RequestInvalidError('holdId must be a positive integer');
    return value;
  }
}

export interface HoldQuery {
  readonly holds?: 'naive';
  readonly raceExpiry?: true;
}

/** The chaos options of holds: `holds=naive` when one is opened, `raceExpiry=1` on a confirm, none on a cancel. */
export function holdQueryPipe(allowed?: 'holds' | 'raceExpiry'): {
  transform(raw: Record<string, unknown>): HoldQuery;
} {
  return {
    transform(raw: Record<string, unknown>): HoldQuery {
      const unknown = Object.keys(raw).filter((k) => k !== allowed);
      if (unknown.length) throw new RequestInvalidError(`unknown query option: ${unknown.join(', ')}`);
      const value = allowed ? raw[allowed] : undefined;
      if (value === undefined) return {};
      if (allowed === 'holds' && value === 'naive') return { holds: 'naive' };
      if (allowed === 'raceExpiry' && value === '1') return { raceExpiry: true };
      throw new RequestInvalidError(allowed === 'holds' ? 'holds must be naive' : 'raceExpiry must be 1');
    },
  };
}
