import { ceilingCosts, type CpuCost } from './cpu-cost';

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
  'the critical section alone (GET, then SET of a counter) back to back from one ioredis client with no lock, in one fresh process running the compiled worker and warmed up first (as the contenders and the rings run), for the same window after the same settle, once per round before the contenders; the highest reading counts. Sections under any lock run one at a time, as here; where a ring below ran them faster, the fastest of the no-lock readings is the ceiling shares are taken of.';

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
