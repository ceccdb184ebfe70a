import type { Audit, Grant } from './answers';
import type { LoadRoom, RoomCounts } from './lab-room';

// The lab server's API (apps/lab, at /lab/ through nginx): what its page, its tests and scripts rely on.
/** The faults the page injects by hand into a running load. */
export const FAULT_NAMES = [
  'pause-holder',
  'freeze-replica',
  'crash-replica',
  'kill-replica',
  'restart-redis',
  'restart-postgres',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** What a walkthrough step (or a fault) needs beyond plain grabs through nginx. */
export type StepNeed =
  /** chaos query options (leases, wait budgets, `nested`): refused with 403 where chaos is off */
  | 'chaos'
  /** a stall, a crash or a stopped server: needs the admin token */
  | 'fault'
  /** the local stack's control endpoint (stop a Redis node, kill a replica) */
  | 'control'
  /** servers the step starts itself (a Redis primary and replica on spare ports) */
  | 'servers';

/** The bounds of a load the lab accepts. */
export const LAB_LIMITS = {
  stock: { min: 1, max: 10_000 },
  buyers: { min: 1, max: 2_000 },
  workMs: { min: 0, max: 5_000 },
} as const;

/** POST /lab/api/runs */
export interface LoadRequest {
  readonly strategy: string;
  readonly stock: number;
  readonly buyers: number;
  readonly workMs: number;
  readonly room?: LoadRoom;
}

/** POST /lab/api/faults/:name (body optional): the replica a stall, crash or kill is aimed at. */
export interface FaultRequest {
  readonly replica?: string;
}

/** Whether this deployment can do something, and if not, why (shown on the page as is). */
export interface Offer {
  readonly available: boolean;
  readonly reason?: string;
}

export interface LabStep extends Offer {
  readonly name: string;
  readonly title: string;
  readonly explain: string;
  readonly expected: string;
  readonly requires: readonly string[];
  readonly uses: readonly StepNeed[];
}

export interface LabFault extends Offer {
  readonly name: FaultName;
  readonly label: string;
  /** What the fault does, in a sentence. */
  readonly what: string;
  readonly uses: readonly StepNeed[];
  /** True when it is aimed at one replica (the page's replica choice). */
  readonly targetsReplica: boolean;
}

/** GET /lab/api/config */
export interface LabConfig {
  readonly chaos: boolean;
  readonly control: boolean;
  readonly replicas: readonly string[];
  readonly steps: readonly LabStep[];
  readonly faults: readonly LabFault[];
  readonly limits: typeof LAB_LIMITS;
  /** Sentences about what this deployment cannot do (no control endpoint, chaos off). */
  readonly notes: readonly string[];
}

export interface RunningScenario {
  readonly kind: 'load' | 'step';
  readonly name: string;
  readonly startedAt: string;
}

export interface FinishedScenario extends RunningScenario {
  readonly outcome: 'done' | 'cancelled' | 'error';
  readonly endedAt: string;
  /** Coupons the run created (a load's one, or a step's). */
  readonly couponIds: readonly number[];
  /** A load: grabs sent (fewer than the buyers when it was cancelled). */
  readonly sent?: number;
  readonly message?: string;
}

/** GET /lab/api/state */
export interface LabState {
  readonly running: RunningScenario | null;
  readonly last: FinishedScenario | null;
}

/** 409 while another scenario runs. */
export interface LabBusyBody {
  readonly code: 'LAB.BUSY';
  readonly message: string;
  readonly running: RunningScenario;
}

/** Error codes of the lab server, with their statuses. */
export const LAB_ERROR_STATUS = {
  'REQUEST.INVALID': 400,
  'AUTH.UNAUTHORIZED': 401,
  'CHAOS.DISABLED': 403,
  'ROUTE.NOT_FOUND': 404,
  'LAB.BUSY': 409,
  'LAB.NO_LOAD': 409,
  'LAB.UNAVAILABLE': 409,
  'REQUEST.TOO_LARGE': 413,
  INTERNAL: 500,
  'DEPENDENCY.UNAVAILABLE': 503,
} as const;
export type LabErrorCode = keyof typeof LAB_ERROR_STATUS;

/** Answers so far of a load: per replica (X-Replica, or `none` when no answer came), per code (`200`, `STOCK.SOLD_OUT`, …). */
export type AnswerTally = Record<string, Record<string, number>>;

/** A load's accepted (202) orders, once the wait for them to be persisted ended. */
export interface LoadOrders {
  readonly accepted: number;
  /** Accepted orders with no grant row when the audit was read: promises broken. */
  readonly withoutGrant: number;
  /** The order stream emptied before the wait ran out. */
  readonly drained: boolean;
}

/** The events of a load's stream (POST /lab/api/runs answers text/event-stream; `event:` is the type). */
export type LoadEvent =
  | {
      readonly type: 'started';
      readonly couponId: number;
      readonly request: LoadRequest;
      readonly replicas: readonly string[];
      /** True when the strategy keeps a Redis counter: progress then carries `redisStock`. */
      readonly redisCounter: boolean;
    }
  | {
      readonly type: 'progress';
      /** Epoch ms, the lab's clock. */
      readonly at: number;
      readonly sent: number;
      readonly answered: number;
      /** The stock of record (PostgreSQL). */
      readonly stock: number;
      /** Redis's counter, what buyers are promised (null before the first grab loads it; absent when unread). */
      readonly redisStock?: number | null;
      readonly answers: AnswerTally;
      /** Grant rows not sent before. */
      readonly grants: readonly Grant[];
      readonly room?: RoomCounts;
    }
  | {
      readonly type: 'fault';
      readonly fault: FaultName;
      /** Epoch ms. */
      readonly at: number;
      /** Where to draw it: a replica, `redis` or `postgres`. */
      readonly lane: string;
      readonly detail: string;
    }
  | {
      readonly type: 'done';
      readonly couponId: number;
      readonly audit: Audit;
      readonly sent: number;
      readonly answered: number;
      readonly answers: AnswerTally;
      readonly elapsedMs: number;
      /** redis-stream: what became of the accepted orders. */
      readonly orders?: LoadOrders;
    }
  | { readonly type: 'error'; readonly code: string; readonly message: string };

/** The events of a step's stream; `Result` is the walkthrough's StepResult. */
export type StepEvent<Result = unknown> =
  | {
      readonly type: 'step';
      readonly name: string;
      readonly title: string;
      readonly explain: string;
      readonly expected: string;
    }
  | { readonly type: 'say'; readonly line: string; readonly at: number }
  | { readonly type: 'result'; readonly result: Result }
  | { readonly type: 'error'; readonly code: string; readonly message: string };
