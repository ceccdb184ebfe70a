import type { OrdersPersisted, StreamOrder } from '@app/stock';

/** The database side of a persister. */
export interface OrderLedger {
  /** Writes a batch of one coupon's orders as grants, in one statement (one commit). */
  persist(couponId: number, orders: readonly StreamOrder[]): Promise<OrdersPersisted>;
  /** The ids of the orders among these that hold their grant (same order id and user), read afresh. */
  granted(couponId: number, orders: readonly StreamOrder[]): Promise<ReadonlySet<string>>;
  /** True when the database answers: a persister reclaims others' orders only then. */
  reachable(): Promise<boolean>;
}

export interface PersisterOptions {
  /** This persister's consumer name in every stream's group (the replica's id). */
  readonly consumer: string;
  /** Orders one statement writes at most. */
  readonly batchSize: number;
  /**
   * The longest a statement can still commit after the persister sent it: the database's wait for
   * a connection plus its statement timeout.
   */
  readonly statementLifeMs: number;
  /**
   * An order pending longer than this is reclaimed by any persister (its consumer died, or gave it
   * back). Longer than `statementLifeMs`: no persister starts a statement later than
   * `reclaimIdleMs − statementLifeMs` after its delivery, so no statement of a reclaimed delivery can
   * still commit.
   */
  readonly reclaimIdleMs: number;
  /** Failures of an order's own (its statement failed, alone) that send it to the dead letters. */
  readonly maxFailures: number;
  /** The pause after a round that found nothing. */
  readonly pollMs: number;
  /** How often the streams are looked for (another replica's accepts, streams left by a crash). */
  readonly discoverEveryMs: number;
}

export interface PersisterHooks {
  /** The coupons that have an order stream now. */
  discover(): Promise<number[]>;
  /** After a commit, before the acknowledgement, for freshly read orders (the after-commit crash point). */
  afterCommit?(crashPoints: readonly string[]): void;
  persisted?(grants: number): void;
  deadLettered?(orders: number): void;
  failed?(error: unknown): void;
}

export const DEFAULT_PERSISTER: Omit<PersisterOptions, 'consumer' | 'statementLifeMs'> = Object.freeze({
  batchSize: 256,
  reclaimIdleMs: 15_000,
  maxFailures: 5,
  pollMs: 20,
  discoverEveryMs: 1000,
});
