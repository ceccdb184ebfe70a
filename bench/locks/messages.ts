import type { ContenderName } from './contenders';

/** One contender's share of work for one worker process. */
export interface WorkerConfig {
  readonly contender: ContenderName;
  readonly redisUrl: string;
  readonly processIndex: number;
  readonly waiters: number;
  /** Grants this process performs in total, shared by its waiters. */
  readonly quota: number;
  readonly resource: string;
  readonly counterKey: string;
}

/** What one worker process reports back. */
export interface WorkerReport {
  readonly processIndex: number;
  /** Grants each waiter got. */
  readonly grantsPerWaiter: number[];
  readonly failedAcquisitions: number;
  /** From claiming a grant to entering the critical section, per grant, ms. */
  readonly waitsMs: number[];
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Set when the worker failed on something other than a lock not had. */
  readonly error?: string;
}

/** run: build the contender and warm up, then answer 'ready'; go: start the measured grants. */
export type ParentMessage =
  { readonly type: 'run'; readonly config: WorkerConfig } | { readonly type: 'go' } | { readonly type: 'exit' };

export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'report'; readonly report: WorkerReport }
  | { readonly type: 'failed'; readonly error: string };
