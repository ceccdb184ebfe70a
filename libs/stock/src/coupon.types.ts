export interface Coupon {
  readonly id: number;
  readonly name: string;
  readonly stock: number;
  readonly initialStock: number;
  readonly segments: number;
}

export interface CouponWithGrants extends Coupon {
  readonly grants: number;
}

export interface Audit {
  readonly initialStock: number;
  readonly stock: number;
  readonly grants: number;
  /** max(0, grants − initialStock) */
  readonly oversold: number;
  /** grants − (initialStock − stock): decrements that a concurrent write overwrote */
  readonly lostUpdates: number;
  /** The most grant intervals on one stock row that overlapped in time. */
  readonly maxConcurrentHolders: number;
}

export interface GrantRecord {
  readonly userId: string;
  readonly replica: string;
  readonly strategy: string;
  readonly segment: number;
  readonly fenceToken: number | null;
  /** ISO 8601 with microseconds, UTC, from the database clock. */
  readonly enteredAt: string;
  readonly leftAt: string;
}

/** Splits `stock` over `segments` rows as evenly as possible (the first rows get the remainder). */
export function splitStock(stock: number, segments: number): number[] {
  const base = Math.floor(stock / segments);
  const extra = stock % segments;
  return Array.from({ length: segments }, (_, i) => base + (i < extra ? 1 : 0));
}
