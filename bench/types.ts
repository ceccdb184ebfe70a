/** What one bench run measures, as written to bench/results/<timestamp>.json. */
import type { Audit } from '@app/contract';
import type { Bound, Ceilings } from './ceilings/ceiling-types';
import type { MachineCpu } from './metrics/machine-cpu';
import type { SellOutResult } from './sell-out/sell-out.types';

export type { Bound, CeilingName, Ceilings, CeilingValues } from './ceilings/ceiling-types';

/** Answers of a round, by what they mean in the contract. */
export interface StatusCounts {
  /** 200 granted. */
  readonly granted: number;
  /** 409 STOCK.SOLD_OUT. */
  readonly soldOut: number;
  /** 409 GRANT.DUPLICATE. */
  readonly duplicate: number;
  /** 409 FENCE.REJECTED: a stale holder's write refused by the database (fenced). */
  readonly fenceRejected: number;
  /** 429 LOCK.TIMEOUT or STOCK.CONTENDED: turned away with stock perhaps left. */
  readonly lockTimeout: number;
  /** 503 with a contract code: a dependency was down or the lock was lost. */
  readonly unavailable: number;
  /** Anything the contract does not allow a grab: a 500, a 502 from nginx, another 4xx. */
  readonly outsideContract: number;
  /** Connection errors: no HTTP answer at all. */
  readonly errors: number;
  readonly timeouts: number;
}

/** Client-side latency, in ms. */
export interface LatencySummary {
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  readonly mean: number;
  readonly stddev: number;
}

/** Latency of the granted answers apart from the turned-away ones: they are different work. */
export interface LatencySplit {
  readonly all: LatencySummary;
  readonly granted: LatencySummary;
  readonly turnedAway: LatencySummary;
}

/** The 200s the client saw against the grant rows the database holds. */
export interface Reconciliation {
  readonly grantedSeen: number;
  readonly grantsInDb: number;
  readonly matches: boolean;
  /** Requests with no answer: a grant may exist that the client never saw. */
  readonly unanswered: number;
}

/** How busy the critical section was over the measured window. */
export interface Utilisation {
  /** Share of the window in which at least one holder was inside (0…1). */
  readonly busyShare: number;
  /** Average number of holders inside at once (> 1 for segmented, or without a lock). */
  readonly meanHolders: number;
  /** From the first entry to the last exit, in ms. */
  readonly windowMs: number;
  /** Share of the same window in which the lock itself was held (from the replicas' release events). */
  readonly lockHeldShare?: number;
}

export interface Fairness {
  /** The slowest answer: the longest any one request waited. */
  readonly maxLatencyMs: number;
  /** p99 − p50: how far the unlucky tail sits from the typical request. */
  readonly spreadMs: number;
  /** Jain's index over per-request latency: 1 when every request took as long. */
  readonly latencyJain: number;
  /** Longest lock wait the replicas reported (GET /lock-events), when they report it. */
  readonly maxLockWaitMs?: number;
}

export type VerdictFlag = 'OVERSOLD' | 'LOST UPDATES' | 'TWO HOLDERS' | 'UNDERSOLD' | 'FAILED' | 'NOT RECONCILED';

export interface Verdict {
  readonly correct: boolean;
  readonly flags: VerdictFlag[];
  /** 'correct', or the flags joined, e.g. 'OVERSOLD + LOST UPDATES'. */
  readonly label: string;
  /** The flags scenarios.ts declares for this strategy. */
  readonly expected: VerdictFlag[];
  /** The verdict is the expected one. */
  readonly asExpected: boolean;
}

/** Grabs on the strategy's coupon once it sold out: the crowd a flash sale mostly is. */
export interface SoldOutRound {
  readonly requests: number;
  readonly perSec: number;
  readonly latency: LatencySummary;
  /** Answers other than 409 STOCK.SOLD_OUT (none expected). */
  readonly otherAnswers: number;
  readonly bound: Bound;
  /** What the round cost the whole machine, per answer, from its start to its last answer (Linux only). */
  readonly machineCpu?: MachineCpu;
}

export interface StrategyResult {
  readonly strategy: string;
  readonly workMs: number;
  readonly couponId: string;
  /** Query sent with every grab (strategy, workMs). */
  readonly query: Record<string, string>;
  readonly segments: number;
  readonly requests: number;
  readonly durationMs: number;
  readonly requestsPerSec: number;
  /** Grants per second, from the round's start to the last 200. */
  readonly grabsPerSec: number;
  readonly bound: Bound;
  readonly latency: LatencySplit;
  readonly statuses: StatusCounts;
  readonly audit: Audit;
  readonly reconciliation: Reconciliation;
  readonly utilisation: Utilisation;
  readonly fairness: Fairness;
  readonly verdict: Verdict;
  /** Absent when the round did not sell the coupon out. */
  readonly soldOut?: SoldOutRound;
  /** On a Redis Cluster, segmented only: commands each master served during the measured round, by URL. */
  readonly commandsPerMaster?: Record<string, number>;
  /** What the measured round cost the whole machine, up to its last grant (Linux only). */
  readonly machineCpu?: MachineCpu;
}

/** Every strategy under one load. */
export interface LoadResult {
  readonly workMs: number;
  readonly results: StrategyResult[];
}

/** A few grabs with a long workMs: each granted one must take at least that long. */
export interface WorkProbe {
  readonly strategy: string;
  readonly workMs: number;
  readonly granted: number;
  /** The fastest granted answer, ms (0 when none was granted). */
  readonly minGrantedMs: number;
  readonly ok: boolean;
}

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly platform: string;
  readonly totalMemGb: number;
}

export interface BenchSettings {
  readonly strategies: string[];
  readonly stock: number;
  readonly requests: number;
  readonly warmupRequests: number;
  readonly connections: number;
  /** One load per value: every strategy runs at each workMs. */
  readonly loads: number[];
  readonly segments: number;
  /** The work probe's workMs (0 skips it). */
  readonly probeWorkMs: number;
  readonly quick: boolean;
}

export interface BenchReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly machine: MachineInfo;
  readonly settings: BenchSettings;
  /** How the figures were taken, in one paragraph. */
  readonly method: string;
  readonly target: { readonly nginxUrl: string; readonly replicas: number };
  readonly ceilings: Ceilings;
  readonly loads: LoadResult[];
  readonly workProbes: WorkProbe[];
  /** segmented against owner-checked, timed to the last 200 (when both ran). */
  readonly sellOut?: SellOutResult;
}
