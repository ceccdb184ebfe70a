import type { Audit } from '@app/contract';
import type { FaultName } from './faults';
import type { Check } from './invariants';
import type { Tally } from './tally';

export interface ScenarioOptions {
  readonly requests: number;
  readonly concurrency: number;
  readonly ratePerSec: number;
  readonly timeoutMs: number;
  /** The coupon's stock; below the requests, so the coupon sells out after the fault. */
  readonly stock: number;
  /** The fault is injected this long after the first request. */
  readonly faultAtMs: number;
  /** How long Redis or PostgreSQL stays down. */
  readonly downMs: number;
  /** Health must be all 200 again within this long after the fault began. */
  readonly recoveryTimeoutMs: number;
  /** Grab query options besides the strategy (leaseMs, waitMs, workMs). */
  readonly query: Readonly<Record<string, number>>;
}

/** What `npm run chaos -- --json FILE` writes. */
export interface ChaosReport {
  readonly startedAt: string;
  /**
   * The stack's Redis (single, sentinel or cluster), the replicas' LOCK_WAIT_REPLICAS (0: none) and
   * a single Redis's REDIS_APPENDFSYNC; absent in older runs.
   */
  readonly redis?: { readonly mode: string; readonly waitReplicas: number; readonly appendFsync?: string };
  readonly results: ScenarioResult[];
  /** The holds runs, one per fault they meet; absent in older runs. */
  readonly holds?: HoldsScenarioResult[];
}

/** How the buyers whose first answer was not a clear yes or no learned what they got, by asking again. */
export interface Resolution {
  /** Asked again after recovery. */
  readonly asked: number;
  /** Held a grant when it asked: stored, though the first answer never said so. */
  readonly storedUnacknowledged: number;
  /** Held an accepted order still waiting in Redis's stream (redis-stream); absent in older runs. */
  readonly pendingWhenAsked?: number;
  /** The retry was granted (redis-stream: accepted): the first attempt had not been. */
  readonly grantedOnRetry: number;
}

export interface ScenarioResult {
  readonly fault: FaultName;
  readonly strategy: string;
  readonly couponId: number;
  readonly requests: number;
  readonly acknowledged: number;
  /** redis-stream: orders answered 202 accepted. */
  readonly accepted?: number;
  /**
   * redis-stream through a restart of a Redis without an append-only file: accepted orders lost
   * with Redis's memory, the documented loss (docs/async-orders.md, "Durability"); present, even
   * at 0, whenever the run could lose them.
   */
  readonly lostByDesign?: number;
  readonly audit: Audit;
  readonly statuses: Tally['statuses'];
  readonly verdicts: Tally['verdicts'];
  /** From the moment the fault began until every replica answered its health check for good. */
  readonly recoveryMs: number | undefined;
  /** Answers to grabs sent after the recovery. */
  readonly answeredAfterRecovery: number;
  readonly maxLatencyMs: number;
  /** Requests in flight when the replica was killed; of those that died with it, how many were granted anyway. */
  readonly inFlightAtKill: number;
  readonly diedWithReplica: { readonly count: number; readonly grantedInDb: number };
  readonly resolution: Resolution;
  /** When the fault was injected and healed, ms since the first request. */
  readonly injectedAtMs: number;
  readonly healedAtMs: number;
  /** Answers by the second they were sent in, for the JSON report. */
  readonly timeline: Tally['timeline'];
  /** A lease lock through a Redis failover: two holders are the expected failure, counted. */
  readonly doubleHoldersExpected?: boolean;
  readonly checks: readonly Check[];
  readonly ok: boolean;
}

/** One holds run of `npm run chaos`: confirms and expiries through one fault. */
export interface HoldsScenarioResult {
  readonly fault: FaultName;
  readonly couponId: number;
  readonly holds: number;
  /** Confirms sent; of those answered 200; of those without an answer (none, or nginx's 502). */
  readonly confirms: number;
  readonly acknowledged: number;
  readonly unanswered: number;
  /** Read once no hold was held. */
  readonly audit: Audit;
  readonly twoOutcomes: number;
  readonly returnedTwice: number;
  /** Confirm answers by label, e.g. { '200': 30, '409 HOLD.EXPIRED': 10 }. */
  readonly statuses: Record<string, number>;
  /** From the moment the fault began until every replica answered its health check for good. */
  readonly recoveryMs: number | undefined;
  readonly checks: readonly Check[];
  readonly ok: boolean;
}
