/** Selling one coupon out: segmented against one lock, timed from the first request to the last 200. */
export interface SellOutSample {
  /** Since the first request, ms. */
  readonly atMs: number;
  /** Each stock row's stock at that moment, by index. */
  readonly stocks: number[];
}

export interface SellOutRun {
  readonly strategy: string;
  readonly segments: number;
  /** First request sent to last 200 answered, ms. */
  readonly sellOutMs: number;
  readonly granted: number;
  /** Stock left at the end (0 when the coupon sold out). */
  readonly stockLeft: number;
  /** Answers by "status" or "status code". */
  readonly answers: Record<string, number>;
  readonly samples: SellOutSample[];
}

export interface SellOutResult {
  readonly buyers: number;
  readonly stock: number;
  readonly inFlight: number;
  readonly workMs: number;
  /** Every run, alternating between the strategies. */
  readonly runs: SellOutRun[];
}
