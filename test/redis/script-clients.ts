import type { Redis } from 'ioredis';
import { lockKeys, type LockKeys } from '../../libs/lock/src/lock-keys';
import { createWakeRedis } from '../../libs/lock/src/redis/redis-clients';
import { defineLockCommands } from '../../libs/lock/src/scripts/lua-commands';
import { probeClient, testRedisTarget, uniqueResource } from './lock-kit';

export interface ScriptTest {
  /** A client with the lock scripts as commands, the same for the whole spec. */
  readonly redis: Redis;
  /** The keys of a resource of this test alone. */
  readonly keys: LockKeys;
}

/**
 * For a spec that runs the lock scripts alone: a command client and a shard-channel subscriber for
 * the whole spec, fresh keys (resources labelled `label`) handed to `use` before each test. Returns
 * `published`, to read what the scripts publish.
 */
export function scriptClients(
  label: string,
  use: (test: ScriptTest) => void,
): (channel: string, work: () => Promise<unknown>) => Promise<string[]> {
  let redis: Redis;
  let subscriber: Redis;
  beforeAll(() => {
    redis = defineLockCommands(probeClient());
    subscriber = createWakeRedis(testRedisTarget());
  });
  afterAll(async () => {
    await redis.quit();
    await subscriber.quit();
  });
  beforeEach(() => use({ redis, keys: lockKeys(uniqueResource(label)) }));

  /**
   * Collects the messages published on `channel` while `work` runs. A sentinel published after
   * the work, from the node that ran the scripts, arrives after them all, so no sleep is needed.
   * On a cluster a plain PUBLISH goes to any node, so it is sent from a script keyed by the
   * channel (which carries the lock's hash tag): it then runs where the lock's scripts ran.
   */
  return async function published(channel, work) {
    const messages: string[] = [];
    const sentinel = `sentinel-${Math.random().toString(36).slice(2)}`;
    let sentinelSeen!: () => void;
    const seen = new Promise<void>((resolve) => (sentinelSeen = resolve));
    const onMessage = (from: string, message: string) => {
      if (from !== channel) return;
      if (message === sentinel) sentinelSeen();
      else messages.push(message);
    };
    subscriber.on('smessage', onMessage);
    await subscriber.ssubscribe(channel);
    try {
      await work();
      await redis.eval("return redis.call('spublish', KEYS[1], ARGV[1])", 1, channel, sentinel);
      await seen;
      return messages;
    } finally {
      subscriber.off('smessage', onMessage);
      await subscriber.sunsubscribe(channel);
    }
  };
}
