/** The answers of the HTTP API, as the contract (docs/api.md) states them. */
import type { LockEvent as LockLibraryEvent } from '@app/lock';
import type { HoldFigures } from './holds';
import type { RoomFigures, RoomSettings } from './room';

export interface Coupon {
  readonly id: number;
  readonly name: string;
  readonly stock: number;
  readonly initialStock: number;
  readonly segments: number;
  /** Coupons created with a waiting room. */
  readonly room?: RoomSettings;
}

export interface CouponWithGrants extends Coupon {
  readonly grants: number;
}

/** GET /coupons/:id/audit: every figure from the database; the hold figures once the coupon has holds. */
export interface Audit extends Partial<HoldFigures> {
  readonly initialStock: number;
  readonly stock: number;
  readonly grants: number;
  /** max(0, grants − initialStock) */
  readonly oversold: number;
  /** grants − (initialStock − stock): decrements that a concurrent write overwrote */
  readonly lostUpdates: number;
  /** The most critical sections on one stock row that overlapped in time (database clock). */
  readonly maxConcurrentHolders: number;
  /**
   * Statements that wrote the grants: one per batch (grants sharing a `batch_id`, db-batched),
   * one per grant for every other strategy. grants / statements = grants per statement.
   */
  readonly statements: number;
  /** Coupons with a waiting room: counted in Redis (see RoomFigures). */
  readonly room?: RoomFigures;
}

/** One grant row, as GET /coupons/:id/grants lists it. */
export interface Grant {
  readonly userId: string;
  readonly replica: string;
  readonly strategy: string;
  readonly segment: number;
  readonly fenceToken: number | null;
  /** ISO 8601 with microseconds, UTC, from the database clock. */
  readonly enteredAt: string;
  readonly leftAt: string;
  /** redis-stream: when Redis accepted the order (Redis's clock); null for every other strategy. */
  readonly acceptedAt?: string | null;
}

/** 200 of POST /coupons/:id/grab. */
export interface GrabGranted {
  readonly granted: true;
  readonly couponId: number;
  readonly userId: string;
  readonly strategy: string;
  readonly replica: string;
  readonly remaining: number;
  readonly segment: number;
  readonly fenceToken?: number;
  /** db-optimistic: attempts lost to a concurrent write before this one. */
  readonly retries?: number;
}

/** 202 of POST /coupons/:id/grab (redis-stream): the order is in Redis's stream, persisted later. */
export interface GrabAccepted {
  readonly accepted: true;
  readonly couponId: number;
  readonly userId: string;
  /** The order's stream entry id: what GET /coupons/:id/grants/:userId answers while it waits. */
  readonly orderId: string;
  readonly strategy: string;
  readonly replica: string;
}

/** 202 of GET /coupons/:id/grants/:userId: an accepted order not yet persisted. */
export interface OrderPending {
  readonly status: 'pending';
  readonly orderId: string;
}

/**
 * 410 ORDER.DEAD_LETTERED of GET /coupons/:id/grants/:userId: an accepted redis-stream order that
 * was given up (the database refused it: superseded by a reset or a counter reload, sold out, or a
 * duplicate; or its own statement kept failing): no unit of the stock of record is sold for it.
 */
export interface OrderDeadLettered {
  readonly code: 'ORDER.DEAD_LETTERED';
  readonly message: string;
  readonly orderId: string;
  readonly reason: string;
}

/** What GET /coupons/:id/grants/:userId told: the grant, an order waiting, an order given up, or neither (404). */
export type GrantLookup =
  | { readonly state: 'granted'; readonly grant: Grant }
  | { readonly state: 'pending'; readonly orderId: string }
  | { readonly state: 'dead-lettered'; readonly orderId: string; readonly reason: string }
  | { readonly state: 'none' };

/** One entry of GET /strategies. */
export interface StrategyEntry {
  readonly name: string;
  readonly fixes: string;
  readonly breaks: string;
}

/** One lock event of a replica, as GET /lock-events lists them: the lock library's event, and who saw it. */
export interface LockEvent extends LockLibraryEvent {
  readonly replica: string;
}

/** POST /coupons/:id/reconcile: Redis's stock (redis-lua) compared with the stock of record, and repaired. */
export interface ReconcileReport {
  readonly couponId: number;
  readonly stockOfRecord: number;
  /** The Redis counter before and after (null: not loaded). */
  readonly counterBefore: number | null;
  readonly counterAfter: number | null;
  readonly reservations: {
    /** Before their deadline: a persist may still be under way, so they are left alone. */
    readonly inFlight: number;
    /** Past their deadline and granted in the database: the answer was lost, not the unit. */
    readonly settled: number;
    /** Past their deadline and not granted: stranded units, given back. */
    readonly returned: number;
  };
  /** What was done about the counter itself. */
  readonly counter: 'in step' | 'repaired' | 'busy' | 'not loaded';
  readonly actions: string[];
}
