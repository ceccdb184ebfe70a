import type { ContenderName } from './contenders';
import type { SchedReading } from './sched-probe';

/** One contender's round for one worker process. */
export interface ContenderConfig {
  readonly kind?: 'contender';
  readonly contender: ContenderName;
  readonly redisUrl: string;
  readonly processIndex: number;
  readonly waiters: number;
  readonly resource: string;
  readonly counterKey: string;
}

/** One worker's part of the turn ceiling's ring (see turn-ceiling.ts). */
export interface TurnConfig {
  readonly kind: 'turns';
  readonly redisUrl: string;
  readonly processIndex: number;
  readonly processes: number;
  /** Sections a process runs each time the turn comes to it (1: one each, in turn). */
  readonly sectionsPerTurn: number;
  readonly channelPrefix: string;
  readonly counterKey: string;
  /**
   * Set for the hand-off ring: each turn also makes a claim-lease hand-off's Redis calls on this
   * key (see turn-ceiling.ts), with leases as ours has them.
   */
  readonly handOff?: { readonly lockKey: string; readonly leaseMs: number; readonly claimMs: number };
}

export type WorkerConfig = ContenderConfig | TurnConfig;

/** What one worker process reports back. */
export interface WorkerReport {
  readonly processIndex: number;
  /** Grants each waiter got inside the window. */
  readonly grantsPerWaiter: number[];
  readonly failedAcquisitions: number;
  /** Sections entered in the settle, on a counter of their own checked as the window's is (absent from the rings). */
  readonly settleSections?: number;
  /** From wanting the lock to entering the critical section, per acquisition (retries included), ms. */
  readonly waitsMs: number[];
  /** The counter value each section of the window read: its grant's place in the window's order (contenders only). */
  readonly places?: number[];
  /** The process's CPU time (user and system) inside the window, µs. */
  readonly cpuMicros?: number;
  /** What the scheduler did with the main thread (the event loop) inside the window; Linux only. */
  readonly sched?: SchedReading;
  /** Set when the worker failed on something other than a lock not had. */
  readonly error?: string;
}

/**
 * run: build the contender and warm up, then answer 'ready'; go: every waiter loops from `startAt`
 * to `endAt`, and what it does counts from `countFrom` (epoch ms).
 */
export type ParentMessage =
  | { readonly type: 'run'; readonly config: WorkerConfig }
  | { readonly type: 'go'; readonly startAt: number; readonly countFrom: number; readonly endAt: number }
  | { readonly type: 'exit' };

export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'report'; readonly report: WorkerReport }
  | { readonly type: 'failed'; readonly error: string };
