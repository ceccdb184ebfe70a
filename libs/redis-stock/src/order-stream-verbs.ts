import type { Redis } from 'ioredis';
import type { StreamOrder } from '@app/stock';
import type { OrderFailure } from './order-batch';
import { PERSISTERS_GROUP as GROUP, type OrderKeys } from './order-commands';

/** An order as read from the stream: the order, or null when its fields are malformed. */
export interface OrderEntry {
  readonly orderId: string;
  readonly order: StreamOrder | null;
  /** The crash point asked for by the grab (chaos), if any. */
  readonly crash?: string;
}

type RawEntry = [id: string, fields: string[]] | null;

function toEntry([orderId, flat]: [string, string[]]): OrderEntry {
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i], flat[i + 1]);
  const userId = fields.get('user');
  const replica = fields.get('replica');
  const acceptedUs = fields.get('acceptedUs');
  const epoch = fields.get('epoch');
  const valid = userId && replica && acceptedUs && /^\d+$/.test(acceptedUs) && epoch && /^\d+$/.test(epoch);
  return {
    orderId,
    order: valid ? { orderId, userId, replica, acceptedUs, epoch } : null,
    crash: fields.get('crash'),
  };
}

const entries = (raw: readonly RawEntry[]): OrderEntry[] =>
  raw.filter((e): e is [string, string[]] => e !== null).map(toEntry);

const isError = (error: unknown, pattern: RegExp) => pattern.test((error as Error)?.message ?? '');

/**
 * Creates the persisters' group on a stream, from its first entry. True when the group exists now;
 * false when the stream does not (deleted, or reset away): nothing to read there.
 */
export async function ensureGroup(redis: Redis, stream: string): Promise<boolean> {
  try {
    await redis.xgroup('CREATE', stream, GROUP, '0');
    return true;
  } catch (error) {
    if (isError(error, /BUSYGROUP/)) return true;
    if (isError(error, /requires the key to exist|no such key/i)) return false;
    throw error;
  }
}

/**
 * Up to `count` entries never delivered to any persister, now this consumer's (pending until
 * acknowledged). Null when the stream or its group is gone.
 */
export async function readNew(
  redis: Redis,
  stream: string,
  consumer: string,
  count: number,
): Promise<OrderEntry[] | null> {
  const read = async () => {
    const reply = (await redis.xreadgroup('GROUP', GROUP, consumer, 'COUNT', count, 'STREAMS', stream, '>')) as
      [string, RawEntry[]][] | null;
    return reply ? entries(reply[0][1]) : [];
  };
  try {
    return await read();
  } catch (error) {
    if (!isError(error, /NOGROUP/)) throw error;
    return (await ensureGroup(redis, stream)) ? read() : null;
  }
}

/** Entries pending longer than `idleMs` (their consumer died, or failed them), with their delivery counts. */
export async function stalePending(redis: Redis, stream: string, idleMs: number, count: number) {
  const rows = (await redis.xpending(stream, GROUP, 'IDLE', idleMs, '-', '+', count)) as [
    string,
    string,
    number,
    number,
  ][];
  return rows.map(([orderId, , , deliveries]) => ({ orderId, deliveries }));
}

/** XAUTOCLAIM: up to `count` entries idle longer than `idleMs` become this consumer's, redelivered. */
export async function claimStale(redis: Redis, stream: string, consumer: string, idleMs: number, count: number) {
  const [, claimed] = (await redis.xautoclaim(stream, GROUP, consumer, idleMs, '0-0', 'COUNT', count)) as [
    string,
    RawEntry[],
  ];
  return entries(claimed);
}

/**
 * Acknowledges persisted orders and deletes them from the stream (an order in the stream is one
 * still waiting), with the failures they had counted.
 */
export async function settle(redis: Redis, keys: OrderKeys, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  await redis
    .multi()
    .xack(keys.orders, GROUP, ...orderIds)
    .xdel(keys.orders, ...orderIds)
    .hdel(keys.failures, ...orderIds)
    .exec();
}

/**
 * Counts a failure of the order's own, for a persister that holds its delivery; at `limit`
 * failures the order is given up (order-dead-letter.lua), its unit given back only when it was
 * neither superseded nor sold out and the counter is still the one it took it from. True when it
 * was given up.
 */
export async function countFailure(
  redis: Redis,
  keys: OrderKeys,
  consumer: string,
  failure: OrderFailure,
): Promise<boolean> {
  const { counter, epoch, buyers, orders, dead, failures, deadBuyers } = keys;
  const { orderId, limit, reason, refusal } = failure;
  const answer = await redis.orderDeadLetter(
    counter,
    epoch,
    buyers,
    orders,
    dead,
    failures,
    deadBuyers,
    GROUP,
    consumer,
    orderId,
    limit,
    reason,
    refusal ?? '',
  );
  return answer === 1;
}
