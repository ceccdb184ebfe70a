/** The ceiling's "lock": none, the section runs as it is, one process, one waiter. */
export const NO_LOCK = 'section alone, no lock';

/** Where a section counts: the window's counter, or one beside it for the warm-up's and the late ones. */
export const phaseCounter = (counterKey: string, phase: 'warm-up' | 'window' | 'late') =>
  phase === 'window' ? counterKey : `${counterKey}:${phase}`;

/** Between the bench and its worker processes: one process's part of one measurement (argv[2], JSON). */
export interface WorkerConfig {
  /** A name of CONTENDERS, or NO_LOCK. */
  readonly contender: string;
  readonly redisUrl: string;
  readonly processIndex: number;
  readonly waiters: number;
  readonly resource: string;
  readonly counterKey: string;
}

/** Epoch ms: every process starts at `startAt`, warms up until `countFrom`, and counts until `endAt`. */
export interface RoundWindow {
  readonly startAt: number;
  readonly countFrom: number;
  readonly endAt: number;
}

export interface WorkerReport {
  readonly processIndex: number;
  /** Sections each waiter entered inside the window. */
  readonly grantsPerWaiter: number[];
  readonly failedAcquisitions: number;
  /** From wanting the lock to entering the section, ms. */
  readonly waitsMs: number[];
  readonly warmUpSections: number;
  /** A failure other than a lock not had. */
  readonly error?: string;
}

export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'report'; readonly report: WorkerReport }
  | { readonly type: 'failed'; readonly error: string };
