import { Redis } from 'ioredis';
import { ceilingCosts, cpuPer, redisCpuMicros, type CeilingReading, type CpuCost } from './cpu-cost';
import { counterSection } from './critical-section';

/** The critical section's own rate with no lock at all, the bound every lock here is held to. */
export interface SectionCeiling {
  /** Sections per second: the highest of the readings (a disturbed reading would flatter the locks). */
  readonly sectionPerSec: number;
  /** One reading per round, taken before that round's contenders. */
  readonly readings: number[];
  /** CPU time per section in the fastest reading (absent from runs made before it was measured). */
  readonly cpuMicrosPerSection?: CpuCost;
  /** CPU time per section of every reading, in order (null where not measured). */
  readonly cpuReadings?: (CpuCost | null)[];
  readonly method: string;
}

export const SECTION_CEILING_METHOD =
  'the critical section alone (GET, then SET of a counter) back to back from one ioredis client with no lock, for the same window, once per round before the contenders; the highest reading counts. Sections under any lock run one at a time, as here; where a ring below ran them faster, the fastest of the no-lock readings is the ceiling shares are taken of.';

const WARM_UP_MS = 300;

/** Pure: the ceiling from each round's reading (and its CPU cost per section, when measured). */
export function sectionCeiling(
  readings: readonly number[],
  costs: readonly (CpuCost | undefined)[] = [],
): SectionCeiling {
  const { fastest, all } = ceilingCosts(readings, costs);
  return {
    sectionPerSec: Math.max(0, ...readings),
    readings: [...readings],
    ...(fastest ? { cpuMicrosPerSection: fastest } : {}),
    ...(all ? { cpuReadings: all } : {}),
    method: SECTION_CEILING_METHOD,
  };
}

/**
 * One reading: sections per second over `seconds`, after a short warm-up on the same connection,
 * and the CPU each section cost this process and Redis.
 */
export async function measureSection(redisUrl: string, seconds: number): Promise<CeilingReading> {
  const redis = new Redis(redisUrl);
  const key = `bench:locks:ceiling:${Date.now()}`;
  const section = () => counterSection(redis, key);
  try {
    const warmEnd = Date.now() + WARM_UP_MS;
    while (Date.now() < warmEnd) await section();
    let sections = 0;
    const redisBefore = redisCpuMicros(await redis.info('cpu'));
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const endAt = start + seconds * 1000;
    while (performance.now() < endAt) {
      await section();
      sections += 1;
    }
    const elapsedMs = performance.now() - start;
    const { user, system } = process.cpuUsage(cpuBefore);
    const redisMicros = redisCpuMicros(await redis.info('cpu')) - redisBefore;
    return {
      perSec: (sections * 1000) / elapsedMs,
      cpu: cpuPer(sections, [{ cpuMicros: user + system }], redisMicros),
    };
  } finally {
    await redis.del(key);
    await redis.quit();
  }
}
