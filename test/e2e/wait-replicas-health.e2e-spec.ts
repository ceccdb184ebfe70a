import type { RunningChild } from '../../tools/stack/servers/child';
import { waitFor } from '../../tools/stack/servers/child';
import { startPrivateRedis } from '../redis/private-redis';
import { testPort } from '../ports';
import { startExtraReplica, type ExtraReplica } from './support/extra-replica';
import { createCoupon, http, testStack, type ErrorBody } from './support/stack';

jest.setTimeout(120_000);

// A replica of our own whose locks WAIT for one Redis replica, on a private Redis primary that has
// none yet (as a primary just promoted by Sentinel): no lock can be had, and health must say so.
const PRIMARY_PORT = testPort(26650);
const REPLICA_PORT = testPort(26651);
const API_PORT = testPort(23196);

describe('health under LOCK_WAIT_REPLICAS=1', () => {
  const servers: RunningChild[] = [];
  let api: ExtraReplica | undefined;

  afterAll(async () => {
    await api?.stop();
    await Promise.all(servers.map((s) => s.stop('SIGTERM', 5000)));
  });

  it('is 503 with the reason while the primary has no replica online, 200 once one is, and locks follow', async () => {
    const info = testStack();
    // No delay before the replica's full sync, so the test waits for the sync, not Redis's default 5 s.
    servers.push(await startPrivateRedis(PRIMARY_PORT, ['--repl-diskless-sync-delay', '0']));
    api = await startExtraReplica(
      info,
      { id: 'api-wait', port: API_PORT, chaos: true },
      {
        env: { REDIS_URL: `redis://127.0.0.1:${PRIMARY_PORT}`, LOCK_WAIT_REPLICAS: '1' },
        startedWhen: (status) => status !== 0,
      },
    );
    const coupon = await createCoupon(info, 5);
    const grab = (userId: string, waitMs: number) =>
      http<ErrorBody>('POST', `${api!.url}/coupons/${coupon.id}/grab?strategy=owner-checked&waitMs=${waitMs}`, {
        userId,
      });

    const unhealthy = await http<ErrorBody>('GET', `${api.url}/health`);
    expect(unhealthy.status).toBe(503);
    expect(unhealthy.body.code).toBe('DEPENDENCY.UNAVAILABLE');
    expect(unhealthy.body.message).toMatch(/redis \(0 of 1 replica\(s\) online/);
    // What the 503 stands for: the lock is refused after its WAIT.
    expect(await grab('before-replica', 300)).toMatchObject({ status: 429, body: { code: 'LOCK.TIMEOUT' } });

    servers.push(await startPrivateRedis(REPLICA_PORT, ['--replicaof', '127.0.0.1', String(PRIMARY_PORT)]));
    await waitFor(
      'health 200 once the replica is online',
      async () => {
        return (await http('GET', `${api!.url}/health`)).status === 200;
      },
      20_000,
      50,
    );
    // A busy machine may let one WAIT time out before the replica acknowledges: the lock is retried.
    expect(await grab('after-replica', 5000)).toMatchObject({ status: 200, body: { granted: true } });
  });
});
