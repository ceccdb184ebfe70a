import type { ApiClient } from '@app/contract';
import type { BenchTarget } from '../target';
import type { CeilingName, Ceilings, CeilingValues } from '../types';
import { httpCeiling } from './http-ceiling';
import { HotRowCeiling } from './pg-hot-row';
import { RedisCeiling } from './redis-stock-take';
import { SectionAloneCeiling } from './section-alone';

export interface CeilingSpec {
  readonly requests: number;
  readonly warmup: number;
  readonly connections: number;
  readonly runId: string;
  /** The loads' workMs above 0: the section alone is measured at each. */
  readonly workLoads: readonly number[];
  /** Sections back to back per reading of the section alone. */
  readonly sections: number;
}

/**
 * The three ceilings, each after a warm-up of its own, with as many requests in flight as the load.
 * Measured before the strategies and again after them: a ceiling is an upper bound, so the higher
 * reading of the two is the one a strategy is held to (a cold or disturbed reading would flatter it).
 */
export class CeilingProbe {
  private readonly hotRow: HotRowCeiling;
  private readonly redis: RedisCeiling;
  private readonly sectionAlone: SectionAloneCeiling;
  private readonly readings: CeilingValues[] = [];
  private readonly sectionReadings = new Map<number, number[]>();

  constructor(
    private readonly api: ApiClient,
    private readonly target: BenchTarget,
    private readonly spec: CeilingSpec,
  ) {
    this.hotRow = new HotRowCeiling(target.databaseUrl, target.databasePoolTotal);
    this.redis = new RedisCeiling(target.redisUrl, target.redisClusterUrls);
    this.sectionAlone = new SectionAloneCeiling(target.databaseUrl, api);
  }

  async measure(phase: string): Promise<CeilingValues> {
    const { requests, warmup, connections, runId } = this.spec;
    if (warmup > 0) await httpCeiling(this.target.nginxUrl, warmup, connections);
    const http = await httpCeiling(this.target.nginxUrl, requests, connections);
    const coupon = await this.api.createCoupon({ name: `bench ceiling ${runId} ${phase}`, stock: requests + warmup });
    const prefix = `ceiling-${runId}-${phase}`;
    if (warmup > 0) await this.hotRow.rate(coupon.id, warmup, connections, `${prefix}-warm-up`);
    const pgHotRowPerSec = await this.hotRow.rate(coupon.id, requests, connections, prefix);
    // The same coupon's Redis keys: no grab touches them (its stock is taken straight above).
    if (warmup > 0) await this.redis.rate(coupon.id, warmup, connections);
    const redisPerSec = await this.redis.rate(coupon.id, requests, connections);
    for (const workMs of this.spec.workLoads) {
      const share = await this.sectionAlone.busyShare(workMs, this.spec.sections, `${prefix}-w${workMs}`);
      this.sectionReadings.set(workMs, [...(this.sectionReadings.get(workMs) ?? []), share]);
    }
    const reading = { httpPerSec: http.perSec, pgHotRowPerSec, redisPerSec, httpCpu: http.machineCpu };
    this.readings.push(reading);
    return reading;
  }

  /** The higher reading of each ceiling, with every reading kept. */
  result(): Ceilings {
    const best = (k: CeilingName) => Math.max(...this.readings.map((r) => r[k]));
    const { requests, warmup, connections } = this.spec;
    const httpPerSec = best('httpPerSec');
    return {
      httpPerSec,
      pgHotRowPerSec: best('pgHotRowPerSec'),
      redisPerSec: best('redisPerSec'),
      httpCpu: this.readings.find((r) => r.httpPerSec === httpPerSec)?.httpCpu, // the reading that counts
      readings: this.readings,
      sectionAlone: [...this.sectionReadings].map(([workMs, readings]) => ({
        workMs,
        busyShare: Math.max(...readings),
        readings,
      })),
      method:
        `Measured before the strategies and after them, each time after a warm-up of ${warmup}: ${requests} operations with ${connections} in flight; ` +
        `the higher reading counts. http: GET /strategies through nginx with autocannon, the load's own client. ` +
        `pg hot row: db-atomic's statement on one coupon's row from node-postgres with a pool of ${this.target.databasePoolTotal} ` +
        `(the replicas' pools together), a fresh userId each. redis: the stock-take Lua script from ioredis. ` +
        `section alone, at each load's workMs: the locks' section (read, work, write back with its grant) ${this.spec.sections} times back to back from one client, ` +
        `no lock, no HTTP; its grants' utilisation, as the strategies' (a lock that lets one section in at a time adds its hand-off between sections, so none passes it).`,
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.hotRow.close(), this.redis.close(), this.sectionAlone.close()]);
  }
}
