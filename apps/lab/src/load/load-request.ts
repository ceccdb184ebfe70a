import { LAB_LIMITS, ROOM_LIMITS, type LoadRequest, type LoadRoom } from '@app/contract';
import { RequestInvalidError } from '@app/apps-common';

const FIELDS = ['strategy', 'stock', 'buyers', 'workMs', 'room'] as const;

function integer(
  body: Record<string, unknown>,
  field: keyof typeof LAB_LIMITS | 'admitPerSec',
  { min, max }: { min: number; max: number } = LAB_LIMITS[field as keyof typeof LAB_LIMITS],
): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new RequestInvalidError(`${field} must be an integer from ${min} to ${max}`);
  return value;
}

/** A load's settings from an untrusted body: a JSON object with exactly these fields, each in range. */
export function parseLoadRequest(body: unknown, strategies: readonly string[]): LoadRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new RequestInvalidError('the body must be a JSON object { strategy, stock, buyers, workMs, room? }');
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown.length) throw new RequestInvalidError(`unknown field(s): ${unknown.join(', ')}`);
  const strategy = record.strategy;
  if (typeof strategy !== 'string' || !strategies.includes(strategy))
    throw new RequestInvalidError(`strategy must be one of ${strategies.join(', ')}`);
  return {
    strategy,
    stock: integer(record, 'stock'),
    buyers: integer(record, 'buyers'),
    workMs: integer(record, 'workMs'),
    ...(record.room !== undefined && { room: parseRoom(record.room) }),
  };
}

/** `room`: `{ admitPerSec }` and nothing else (the window is the API's default). */
function parseRoom(room: unknown): LoadRoom {
  if (typeof room !== 'object' || room === null || Array.isArray(room))
    throw new RequestInvalidError('room must be a JSON object { admitPerSec }');
  const record = room as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => key !== 'admitPerSec');
  if (unknown.length) throw new RequestInvalidError(`unknown room field(s): ${unknown.join(', ')}`);
  return { admitPerSec: integer(record, 'admitPerSec', ROOM_LIMITS.admitPerSec) };
}

/** A fault's optional body: `{ replica }`, one of the replicas the lab knows. */
export function parseFaultTarget(body: unknown, replicas: readonly string[]): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) throw new RequestInvalidError('the body must be a JSON object');
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => key !== 'replica');
  if (unknown.length) throw new RequestInvalidError(`unknown field(s): ${unknown.join(', ')}`);
  if (record.replica === undefined) return undefined;
  if (typeof record.replica !== 'string' || !replicas.includes(record.replica))
    throw new RequestInvalidError(`replica must be one of ${replicas.join(', ')}`);
  return record.replica;
}
