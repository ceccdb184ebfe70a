import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { probeClient, testRedisUrl, uniqueResource } from '../../../../test/redis/lock-kit';
import { lockKeys, waiterWakeChannel } from '../lock-keys';
import { subscriberOptions } from '../redis/redis-clients';
import { WakeSubscriber } from './wake-subscriber';

// A subscription Redis refuses, for real: an ACL user that may not SSUBSCRIBE, then may again.
let probe: Redis;
let user: string;
let connection: Redis;
let wake: WakeSubscriber;

beforeEach(async () => {
  probe = probeClient();
  user = `wake-refused-${randomUUID().slice(0, 8)}`;
  await probe.call('ACL', 'SETUSER', user, 'on', 'nopass', '~*', '&*', '+@all', '-ssubscribe');
  connection = new Redis(testRedisUrl(), { ...subscriberOptions, username: user, password: 'any' });
  // A long linger: on its own the channel of the first listener would still be there for the second.
  wake = new WakeSubscriber(connection, 1000, 10_000);
});
afterEach(async () => {
  await wake.close();
  await probe.call('ACL', 'DELUSER', user);
  await probe.quit();
});

it('subscribes again for the next listener once Redis refused the subscription, and hears the channel then', async () => {
  const channel = waiterWakeChannel(lockKeys(uniqueResource('refused')), 'proc-a');
  const first = await wake.listen(channel); // refused: NOPERM
  expect(await probe.call('PUBSUB', 'SHARDNUMSUB', channel)).toEqual([channel, 0]);
  first.close(true);

  await probe.call('ACL', 'SETUSER', user, '+ssubscribe');
  const second = await wake.listen(channel); // resolves once Redis confirmed the new SSUBSCRIBE
  expect(await probe.call('PUBSUB', 'SHARDNUMSUB', channel)).toEqual([channel, 1]);
  const woke = second.wait(5000);
  await probe.spublish(channel, 'released');
  await expect(woke).resolves.toBe('woken');
  second.close(false);
});
