/** The physical ceilings a bench run measures, and the bound each strategy is set against. */
import type { MachineCpu } from '../metrics/machine-cpu';

/** One reading of the three ceilings. */
export interface CeilingValues {
  readonly httpPerSec: number;
  readonly pgHotRowPerSec: number;
  readonly redisPerSec: number;
  /** What the http reading cost the whole machine, per request (Linux only). */
  readonly httpCpu?: MachineCpu;
}

/**
 * The section alone at one load's workMs: the lock utilisation no lock that lets one section in at
 * a time can pass (see section-alone.ts).
 */
export interface SectionAloneBound {
  readonly workMs: number;
  /** The higher reading. */
  readonly busyShare: number;
  readonly readings: number[];
}

/** The physical ceilings, measured in the same run with as many requests in flight as the load. */
export interface Ceilings extends CeilingValues {
  /** Every reading (before and after the strategies); the figures above are the higher of each. */
  readonly readings: CeilingValues[];
  /** Per load with work inside (absent from runs made before it was measured). */
  readonly sectionAlone?: readonly SectionAloneBound[];
  /** How each was taken: requests, in flight, pool size. */
  readonly method: string;
}

export type CeilingName = 'httpPerSec' | 'pgHotRowPerSec' | 'redisPerSec';

/** The ceiling that bounds a strategy, and how close it came. */
export interface Bound {
  readonly ceiling: CeilingName;
  readonly perSec: number;
  /** grabs/s over the ceiling. */
  readonly share: number;
}
