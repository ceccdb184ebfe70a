/** What one bench run measures, as written to bench/results/<timestamp>.json. */

/** Responses of the measured round, by what they mean in the contract. */
export interface StatusCounts {
  /** 200 granted. */
  readonly granted: number;
  /** 409 STOCK.SOLD_OUT. */
  readonly soldOut: number;
  /** 409 GRANT.DUPLICATE. */
  readonly duplicate: number;
  /** 409 FENCE.REJECTED: a stale holder's write refused by the database (fenced). */
  readonly fenceRejected: number;
  /** 429 LOCK.TIMEOUT. */
  readonly lockTimeout: number;
  /** Any other 4xx (400, 404, 403, another 409 code). */
  readonly otherClientError: number;
  /** 5xx, including 503 DEPENDENCY.UNAVAILABLE. */
  readonly serverError: number;
  /** Connection errors and timeouts: no HTTP answer at all. */
  readonly errors: number;
  readonly timeouts: number;
}

/** Client-side latency of every answered request of the measured round, in ms. */
export interface LatencySummary {
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  readonly mean: number;
  readonly stddev: number;
}

/** GET /coupons/:id/audit, all from the database. */
export interface Audit {
  readonly initialStock: number;
  readonly stock: number;
  readonly grants: number;
  readonly oversold: number;
  readonly lostUpdates: number;
  readonly maxConcurrentHolders: number;
}

/** One row of GET /coupons/:id/grants (ISO timestamps from the database clock). */
export interface GrantRow {
  readonly userId: string;
  readonly replica: string;
  readonly strategy: string;
  readonly segment: number;
  readonly fenceToken: number | null;
  readonly enteredAt: string;
  readonly leftAt: string;
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
  /**
   * Share of the same window in which the lock itself was held (from the replicas' release
   * events). Above busyShare by the time a holder spends outside the database section.
   */
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

export type VerdictFlag = 'OVERSOLD' | 'LOST UPDATES' | 'TWO HOLDERS';

export interface Verdict {
  readonly correct: boolean;
  readonly flags: VerdictFlag[];
  /** 'correct', or the flags joined, e.g. 'OVERSOLD + LOST UPDATES'. */
  readonly label: string;
}

export interface StrategyResult {
  readonly strategy: string;
  readonly couponId: string;
  /** Query sent with every grab (strategy, workMs, …). */
  readonly query: Record<string, string>;
  readonly segments: number;
  readonly requests: number;
  readonly durationMs: number;
  readonly requestsPerSec: number;
  /** Grants per second, from the round's start to the last 200. */
  readonly grabsPerSec: number;
  readonly latency: LatencySummary;
  readonly statuses: StatusCounts;
  readonly audit: Audit;
  readonly reconciliation: Reconciliation;
  readonly utilisation: Utilisation;
  readonly fairness: Fairness;
  readonly verdict: Verdict;
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
  readonly workMs: number;
  readonly segments: number;
  readonly quick: boolean;
}

export interface BenchReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly machine: MachineInfo;
  readonly settings: BenchSettings;
  /** One paragraph saying how the figures were taken. */
  readonly method: string;
  readonly target: { readonly nginxUrl: string; readonly replicas: number };
  readonly results: StrategyResult[];
}
