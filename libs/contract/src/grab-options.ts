/** The named points where `crash` kills the replica (`1` is `after-acquire`). */
export const CRASH_POINTS = ['after-acquire', 'after-reserve', 'after-commit', 'after-accept'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** A grab's query: the strategy, the simulated work, and the chaos options. */
export interface GrabOptions {
  readonly strategy?: string;
  readonly workMs?: number;
  readonly leaseMs?: number;
  readonly waitMs?: number;
  readonly pauseMs?: number;
  readonly freezeMs?: number;
  readonly crash?: CrashPoint | '1';
  readonly nested?: boolean;
  /** A stepped grab's gate id (the lab's scheduler; sent with the admin token). */
  readonly step?: string;
}

const NUMERIC = ['workMs', 'leaseMs', 'waitMs', 'pauseMs', 'freezeMs'] as const;

/** The grab's query string: only the options given, flags as `1`. */
export function grabQuery(options: GrabOptions): URLSearchParams {
  const query = new URLSearchParams();
  if (options.strategy !== undefined) query.set('strategy', options.strategy);
  for (const key of NUMERIC) {
    const value = options[key];
    if (value !== undefined) query.set(key, String(value));
  }
  if (options.crash !== undefined) query.set('crash', options.crash);
  if (options.nested) query.set('nested', '1');
  if (options.step !== undefined) query.set('step', options.step);
  return query;
}
