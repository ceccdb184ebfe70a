import { Pool } from 'pg';
import { Redis } from 'ioredis';
import { ApiClient, type GrabAnswer } from '@app/contract';
import { awaitOrderDrain, orderKeys } from '@app/redis-stock';
import { testStack, type StackInfo } from './stack';

export const STRATEGY = 'redis-stream';

/**
 * A suite's probe of the test stack, closed after it: every replica up before each test (a fault
 * may have crashed one), or only before all when `beforeAll`.
 */
export function orderProbe(when: typeof beforeEach = beforeEach): OrderProbe {
  const probe = new OrderProbe(testStack());
  when(() => probe.replicasUp());
  afterAll(() => probe.close());
  return probe;
}

/** The stack's API, Redis and PostgreSQL, to judge redis-stream from what each really holds. */
export class OrderProbe {
  readonly api: ApiClient;
  readonly redis: Redis;
  /** A pool, not one client: the specs stop PostgreSQL, and a dead connection is replaced. */
  private readonly pg: Pool;

  constructor(readonly info: StackInfo) {
    this.api = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });
    this.redis = new Redis(info.redisUrl, { maxRetriesPerRequest: 1, retryStrategy: () => 200, lazyConnect: true });
    this.redis.on('error', () => undefined);
    this.pg = new Pool({ connectionString: info.databaseUrl, max: 2 });
    this.pg.on('error', () => undefined);
  }

  /** Waits until every replica answers its health check (a crashed one is being restarted). */
  async replicasUp(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const replica of this.info.replicas) {
      while (!(await this.api.at(replica.url).healthy())) {
        if (Date.now() > deadline) throw new Error(`${replica.id} not healthy within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.pg.end();
  }

  /** Orders still in the coupon's stream (accepted, not yet persisted); 0 once drained. */
  async inFlight(couponId: number): Promise<number> {
    return this.redis.xlen(orderKeys(couponId).orders);
  }

  /** Waits until the coupon's stream holds no order; returns how long that took. */
  async drained(couponId: number, timeoutMs = 30_000): Promise<number> {
    const stream = await awaitOrderDrain(this.redis, couponId, { timeoutMs });
    if (!stream.drained) throw new Error(`coupon ${couponId}: orders still in flight after ${timeoutMs} ms`);
    return stream.waitedMs;
  }

  /** The figures the invariants are judged on, all read after the drain. */
  async figures(couponId: number) {
    const audit = await this.api.audit(couponId);
    const { rows } = await this.pg.query<{ twice: number }>(
      'SELECT COUNT(*)::int AS twice FROM (SELECT user_id FROM grants WHERE coupon_id = $1 GROUP BY user_id HAVING COUNT(*) > 1) t',
      [couponId],
    );
    const counter = await this.redis.get(orderKeys(couponId).counter);
    return { audit, usersGrantedTwice: rows[0].twice, redisCounter: counter === null ? null : Number(counter) };
  }

  /** Accept-to-durable latencies of the coupon's grants (ms): Redis's accept time to the grant row's time. */
  async latenciesMs(couponId: number): Promise<number[]> {
    const { rows } = await this.pg.query<{ ms: number }>(
      'SELECT EXTRACT(EPOCH FROM (left_at - accepted_at))::float8 * 1000 AS ms FROM grants WHERE coupon_id = $1 AND accepted_at IS NOT NULL',
      [couponId],
    );
    return rows.map((r) => r.ms);
  }

  /** Grabs by `users` at once through nginx. */
  grabAll(couponId: number, users: readonly string[], via = this.api): Promise<GrabAnswer[]> {
    return Promise.all(users.map((u) => via.grab(couponId, u, { strategy: STRATEGY })));
  }

  /** One grab through each replica directly, so each knows the coupon and Redis has its counter loaded. */
  async warmEveryReplica(couponId: number, prefix: string): Promise<GrabAnswer[]> {
    return Promise.all(
      this.info.replicas.map((r, i) => this.api.at(r.url).grab(couponId, `${prefix}-${i}`, { strategy: STRATEGY })),
    );
  }
}

let sequence = 0;
/** `n` userIds never used before in this run. */
export const users = (prefix: string, n: number) =>
  Array.from({ length: n }, () => `${prefix}-${Date.now().toString(36)}-${sequence++}`);

export const statuses = (answers: readonly GrabAnswer[]) => {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.code && a.status !== 202 ? `${a.status} ${a.code}` : String(a.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};
