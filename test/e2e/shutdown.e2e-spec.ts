import { testPort } from '../ports';
import { connect } from 'node:net';
import Redis from 'ioredis';
import { waitFor } from '../../tools/stack/servers/child';
import { startExtraReplica, type ExtraReplica } from './support/extra-replica';
import { audit } from './support/grabs';
import { createCoupon, http, testStack, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

// Graceful shutdown: SIGTERM in the middle of a grab's critical section. The replica is our own
// process (not one of the stack's, which the supervisor would restart), on the stack's databases.
const PORT = testPort(23198);
const REPLICA_ID = 'api-drain';

const startReplica = (info: StackInfo) => startExtraReplica(info, { id: REPLICA_ID, port: PORT, chaos: true });

/** Polls until the lock key exists; returns its remaining TTL (ms). */
async function lockHeld(redis: Redis, key: string): Promise<number> {
  let pttl = -2;
  await waitFor(`${key} in Redis`, async () => (pttl = await redis.pttl(key)) > 0, 5000, 10);
  return pttl;
}

describe('graceful shutdown (SIGTERM mid-section)', () => {
  let info: StackInfo;
  let redis: Redis;
  let replica: ExtraReplica | undefined;

  beforeAll(() => {
    info = testStack();
    redis = new Redis(info.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    await replica?.child.stop('SIGKILL');
    replica = undefined;
  });
  afterAll(() => redis.disconnect());

  it('answers the in-flight grab, releases its lock, exits 0 at once', async () => {
    const coupon = await createCoupon(info, 5);
    const key = `lock:{coupon:${coupon.id}}`;
    replica = await startReplica(info);
    const { child } = replica;

    const grab = http('POST', `${replica.url}/coupons/${coupon.id}/grab?strategy=watchdog&pauseMs=1500`, {
      userId: 'drain-1',
    }).then((res) => ({ res, at: Date.now() }));
    // Inside the section: the lock is held, with far more lease left than the test needs,
    // so its absence later can only be a release, not an expiry.
    expect(await lockHeld(redis, key)).toBeGreaterThan(5000);
    child.child.kill('SIGTERM');

    const answered = await grab;
    expect(answered.res.status).toBe(200);
    expect(answered.res.body).toMatchObject({ granted: true, userId: 'drain-1', replica: REPLICA_ID });
    const exitCode = await child.exited;
    const exitedAt = Date.now();
    expect(await redis.exists(key)).toBe(0);
    expect(exitCode).toBe(0);
    // The client's keep-alive connection must not hold the exit back (Node would wait for it to idle out).
    expect(exitedAt - answered.at).toBeLessThan(1500);
    // The grant the client saw is in the database, and the stock matches.
    expect(await audit(info, coupon.id)).toMatchObject({ grants: 1, stock: 4, lostUpdates: 0 });
  });

  it('keeps renewing the lease until the in-flight section is done', async () => {
    const coupon = await createCoupon(info, 5);
    const key = `lock:{coupon:${coupon.id}}`;
    replica = await startReplica(info);
    const { child } = replica;

    // A 600 ms lease outlived by a 1500 ms pause: only renewals during the shutdown keep it.
    const grab = http('POST', `${replica.url}/coupons/${coupon.id}/grab?strategy=watchdog&pauseMs=1500&leaseMs=600`, {
      userId: 'drain-2',
    });
    await lockHeld(redis, key);
    child.child.kill('SIGTERM');
    // Past the 600 ms lease and still inside the section: only a renewal since SIGTERM keeps the key.
    await new Promise((r) => setTimeout(r, 900));
    expect(await redis.pttl(key)).toBeGreaterThan(0);

    const res = await grab;
    expect(res.status).toBe(200);
    expect(await child.exited).toBe(0);
    expect(await redis.exists(key)).toBe(0);
    expect(await audit(info, coupon.id)).toMatchObject({ grants: 1, stock: 4 });
  });

  it("keeps an idle keep-alive connection open past Node's 5 s default (nginx reuses them for 60 s)", async () => {
    replica = await startReplica(info);
    const socket = connect(PORT, '127.0.0.1');
    let closedAt: number | undefined;
    socket.once('close', () => {
      closedAt = Date.now();
    });
    const answered = new Promise<string>((done) => socket.once('data', (chunk) => done(chunk.toString())));
    socket.write('GET /health HTTP/1.1\r\nHost: replica\r\nConnection: keep-alive\r\n\r\n');
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((r) => setTimeout(r, 6000));
    expect(closedAt).toBeUndefined();
    socket.destroy();
  });

  it('refuses new connections once it has exited', async () => {
    replica = await startReplica(info);
    replica.child.child.kill('SIGTERM');
    expect(await replica.child.exited).toBe(0);
    await expect(fetch(`${replica.url}/health`)).rejects.toThrow();
  });
});
