/** What the slow-database round measured (bench/slow-db/slow-db-round.ts); times in ms since the first buyer was sent. */

export interface SlowDbRun {
  readonly strategy: string;
  /** Each buyer in arrival order: when it was sent, and how long it waited for its answer. */
  readonly sentMs: number[];
  readonly waitMs: number[];
  /** Answers by "status" or "status code". */
  readonly answers: Record<string, number>;
  /** When the bench had the row, and when it let it go. */
  readonly stallFromMs: number;
  readonly stallToMs: number;
  /** The wait of the buyers sent while the row was held. */
  readonly stalled: { readonly p50: number; readonly p99: number; readonly max: number };
  /** From the release to the grant row of the last buyer who arrived before it: the backlog durable. */
  readonly caughtUpMs: number;
  /** Every success answer (200, or 202 accepted) has its grant row, and none beyond the stock. */
  readonly correct: boolean;
}

export interface SlowDbResult {
  readonly buyers: number;
  readonly perSec: number;
  readonly stallMs: number;
  readonly runs: SlowDbRun[];
}
