import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis, Result } from 'ioredis';

type Keys = [room: string, users: string, tickets: string, active: string, untils: string];

declare module 'ioredis' {
  interface RedisCommander<Context> {
    roomJoin(...args: [...Keys, userId: string, secret: string]): Result<RoomJoinReply, Context>;
    roomPoll(...args: [...Keys, ticket: number, secret: string]): Result<RoomPollReply, Context>;
    roomCheck(...args: [...Keys, userId: string, ticket: string, secret: string]): Result<RoomCheckReply, Context>;
    roomSettle(...args: [...Keys, ticket: number, outcome: 'granted' | 'sold-out']): Result<0 | 1, Context>;
    roomLoad(...args: [...Keys, admitPerSec: number, windowMs: number, left: number]): Result<0 | 1, Context>;
  }
}

/** room-join: not loaded, sold out, or the ticket's number, secret, position and eta. */
export type RoomJoinReply = [-2] | [-1] | [number, string, number, number];
/** room-poll: not loaded, unknown, waiting (position, eta), admitted (until), sold out, expired. */
export type RoomPollReply = [-2] | [-3] | [0, number, number] | [1, number] | [2] | [3];
/** room-check: not loaded, admitted, waiting while sold out, or not admitted (position, 0 if not waiting). */
export type RoomCheckReply = [-2] | [1] | [-1] | [0, number];

const SCRIPTS = {
  roomJoin: 'room-join.lua',
  roomPoll: 'room-poll.lua',
  roomCheck: 'room-check.lua',
  roomSettle: 'room-settle.lua',
  roomLoad: 'room-load.lua',
} as const;

/**
 * Registers the room scripts on a client once, each after the prelude they share (room-advance.lua):
 * Redis runs a script as one text, so the shared part is joined to each when it is loaded.
 */
export function defineRoomCommands(client: Redis): void {
  const dir = join(__dirname, 'scripts');
  const prelude = readFileSync(join(dir, 'room-advance.lua'), 'utf8');
  for (const [name, file] of Object.entries(SCRIPTS)) {
    if (typeof (client as unknown as Record<string, unknown>)[name] === 'function') continue;
    client.defineCommand(name, { numberOfKeys: 5, lua: `${prelude}\n${readFileSync(join(dir, file), 'utf8')}` });
  }
}

/** A room's keys: the coupon's hash tag, so one cluster slot holds them all. */
export function roomKeys(couponId: number): Keys {
  const room = `room:{coupon:${couponId}}`;
  return [room, `${room}:users`, `${room}:tickets`, `${room}:active`, `${room}:until`];
}
