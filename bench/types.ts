/** What one bench run measures, as written to bench/results/<timestamp>.json. */
import type { Audit } from '@app/contract';
import type { LatencySummary } from '@app/stock';
import type { Utilisation } from './metrics/figures';
import type { MachineInfo } from './machine';
import type { BenchSettings } from './options';
import type { SellOutResult } from './sell-out/sell-out-round';
import type { SlowDbResult } from './slow-db/slow-db-round';
import type { Reconciliation, StatusCounts, Verdict, VerdictFlag } from './metrics/verdict';

export type { BenchSettings, MachineInfo, Reconciliation, StatusCounts, Verdict, VerdictFlag };

export type CeilingName = 'httpPerSec' | 'pgHotRowPerSec' | 'redisPerSec';

/** The physical ceilings, measured in the same run with as many requests in flight as the load. */
export type Ceilings = Readonly<Record<CeilingName, number>>;

export type Bound = { readonly ceiling: CeilingName; readonly perSec: number; readonly share: number };

export interface StrategyResult {
  readonly strategy: string;
  readonly workMs: number;
  readonly couponId: string;
  /** Grants per second, from the round's start to the last 200. */
  readonly grabsPerSec: number;
  readonly bound: Bound;
  /** Client-side, ms; null when no answer was of its kind. */
  readonly latency: { readonly granted: LatencySummary | null; readonly turnedAway: LatencySummary | null };
  readonly statuses: StatusCounts;
  readonly audit: Audit;
  readonly reconciliation: Reconciliation;
  readonly utilisation: Utilisation;
  readonly verdict: Verdict;
  /** Grabs on the coupon once it sold out: answers/s, and answers other than 409 SOLD_OUT. */
  readonly soldOut?: { readonly requests: number; readonly perSec: number; readonly otherAnswers: number };
  /** The whole machine's CPU time (every process) from the measured round's start to its last answer, per request, µs (Linux only). */
  readonly cpuMicrosPerRequest?: number;
  /** redis-stream: from Redis's acceptance of each order to its grant row, ms (null when none was accepted). */
  readonly acceptToDurable?: LatencySummary | null;
  /** Transactions that wrote during the measured round (and its drain). */
  readonly commits?: number;
}

export type LoadResult = { readonly workMs: number; readonly results: StrategyResult[] };

/** What a run teaches: one sentence with this run's numbers, whether it held, and if not, the two numbers. */
export interface Lesson {
  readonly id: string;
  readonly text: string;
  readonly held: boolean;
  readonly notHeld?: string;
  /** The HTML report's chart that shows it (the micro-bench has no such report). */
  readonly shownBy?: string;
}

export interface BenchReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly machine: MachineInfo;
  readonly settings: BenchSettings;
  readonly method: string;
  readonly target: { readonly nginxUrl: string; readonly replicas: number };
  readonly ceilings: Ceilings;
  readonly loads: LoadResult[];
  readonly sellOut?: SellOutResult;
  readonly slowDb?: SlowDbResult;
  readonly lessons: Lesson[];
}
