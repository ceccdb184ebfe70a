import { Redis } from 'ioredis';
import { counterSection } from './critical-section';

/** The critical section's own rate with no lock at all, the bound every lock here is held to. */
export interface SectionCeiling {
  /** Sections per second: the highest of the readings (a disturbed reading would flatter the locks). */
  readonly sectionPerSec: number;
  /** One reading per round, taken before that round's contenders. */
  readonly readings: number[];
  readonly method: string;
}

export const SECTION_CEILING_METHOD =
  'the critical section alone (GET, then SET of a counter) back to back from one ioredis client with no lock, for the same window, once per round before the contenders; the highest reading counts. Sections under any lock run one at a time, so no lock passes it.';

const WARM_UP_MS = 300;

/** Pure: the ceiling from each round's reading. */
export function sectionCeiling(readings: readonly number[]): SectionCeiling {
  return { sectionPerSec: Math.max(0, ...readings), readings: [...readings], method: SECTION_CEILING_METHOD };
}

/** One reading: sections per second over `seconds`, after a short warm-up on the same connection. */
export async function measureSection(redisUrl: string, seconds: number): Promise<number> {
  const redis = new Redis(redisUrl);
  const key = `bench:locks:ceiling:${Date.now()}`;
  const section = () => counterSection(redis, key);
  try {
    const warmEnd = Date.now() + WARM_UP_MS;
    while (Date.now() < warmEnd) await section();
    let sections = 0;
    const start = performance.now();
    const endAt = start + seconds * 1000;
    while (performance.now() < endAt) {
      await section();
      sections += 1;
    }
    return (sections * 1000) / (performance.now() - start);
  } finally {
    await redis.del(key);
    await redis.quit();
  }
}
