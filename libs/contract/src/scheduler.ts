/**
 * Be the scheduler: two buyers of one unit, each a real grab held between the named steps of its
 * strategy's path, stepped one at a time by the learner. What the replica, the lab and the page share.
 */

/** The strategies a round can use, in the order the page offers them. */
export const SCHED_STRATEGIES = ['none', 'set-nx-px', 'owner-checked', 'fenced', 'db-atomic'] as const;
export type SchedStrategy = (typeof SCHED_STRATEGIES)[number];

/** A named point of the grab path, where a stepped grab waits for the word to go on. */
export type SchedStep = 'acquire' | 'read' | 'write' | 'release';

/** One step as the page shows it: the line of the strategy's code that the step runs. */
export interface SchedLine {
  readonly step: SchedStep;
  readonly code: string;
}

export interface SchedStrategyInfo {
  readonly lines: readonly SchedLine[];
  /** Whether the lock has a lease that can run out (the "expire the lease" control). */
  readonly leased: boolean;
  /** What the learner is asked to make happen. */
  readonly challenge: string;
  /** Met: the audit shows it. Null for the rounds where it cannot be done. */
  readonly goal: 'oversold' | 'two-holders' | null;
  /** Said once the round is over and the goal could not be met. */
  readonly why?: string;
}

const READ: SchedLine = { step: 'read', code: 'const row = await readStock(query, req); // SELECT stock' };
const WRITE: SchedLine = {
  step: 'write',
  code: 'await writeBack(query, req, row, fence); // UPDATE stock = read − 1; INSERT grant',
};
const ACQUIRE = (how: string): SchedLine => ({
  step: 'acquire',
  code: `await lock.acquire(key, owner, leaseMs); // ${how}`,
});
const RELEASE = (how: string): SchedLine => ({ step: 'release', code: `await lock.release(key, owner); // ${how}` });

export const SCHED_INFO: Record<SchedStrategy, SchedStrategyInfo> = {
  none: {
    lines: [READ, WRITE],
    leased: false,
    challenge: 'Sell one coupon twice: both buyers read the stock before either writes.',
    goal: 'oversold',
  },
  'set-nx-px': {
    lines: [ACQUIRE('SET key owner NX PX leaseMs'), READ, WRITE, RELEASE('GETDEL key: deletes whoever holds it')],
    leased: true,
    challenge: 'Sell one coupon twice: let buyer 1’s lease run out while it holds the lock.',
    goal: 'oversold',
  },
  'owner-checked': {
    lines: [
      ACQUIRE('SET NX PX, fair queue (acquire.lua)'),
      READ,
      WRITE,
      RELEASE('release.lua: delete only if still ours'),
    ],
    leased: true,
    challenge: 'Get two holders in the critical section at once, and sell one coupon twice.',
    goal: 'two-holders',
  },
  fenced: {
    lines: [
      ACQUIRE('acquire.lua draws a fencing token'),
      {
        step: 'read',
        code: 'const row = await readStockFenced(query, req, fence); // UPDATE fence = token WHERE fence <= token',
      },
      { step: 'write', code: 'await writeBack(query, req, row, fence); // UPDATE … WHERE fence <= token' },
      RELEASE('release.lua: delete only if still ours'),
    ],
    leased: true,
    challenge:
      'Try the owner-checked schedule: buyer 1 reads, its lease runs out, buyer 2 holds and reads; then let either write first.',
    goal: null,
    why:
      'Each read registers the holder’s token on the stock row, and the database writes only with the row’s latest token: ' +
      'once buyer 2 has read, buyer 1’s stale write is refused, whether it comes first or last.',
  },
  'db-atomic': {
    lines: [
      { step: 'write', code: 'await query(ATOMIC_GRANT_SQL); // UPDATE … SET stock = stock − 1 WHERE stock > 0' },
    ],
    leased: false,
    challenge: 'Try to sell one coupon twice, in any order.',
    goal: null,
    why: 'One statement reads and writes under the row lock: there is no gap between read and write to schedule into.',
  },
};

export const isSchedStrategy = (name: string): name is SchedStrategy =>
  (SCHED_STRATEGIES as readonly string[]).includes(name);

/** The steps of a strategy's path, in order. */
export const schedSteps = (strategy: SchedStrategy): SchedStep[] => SCHED_INFO[strategy].lines.map((l) => l.step);

/** A stepped grab's gate id (the `step` grab option): letters, digits, `-` and `_`. */
export const STEP_GATE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The gate's keys in Redis, in one hash slot: where the grab says where it is, and where it waits. */
export function stepGateKeys(gate: string): { readonly at: string; readonly go: string } {
  return { at: `step-gate:{${gate}}:at`, go: `step-gate:{${gate}}:go` };
}

/** What the `at` key holds: `<n>:<step>` (n counts the steps reached), or `<n>:released` once let go unstepped. */
export const gateMark = (n: number, step: string): string => `${n}:${step}`;

/** POST /lab/api/sched/rounds */
export interface SchedStartRequest {
  readonly strategy: string;
}

/** POST /lab/api/sched/rounds/:id/step */
export interface SchedStepRequest {
  readonly buyer: number;
}

export interface SchedBuyer {
  readonly buyer: 1 | 2;
  readonly replica: string;
  /** The step it runs next, or `done` once its grab answered. */
  readonly next: SchedStep | 'done';
  /** True while a step was told to go and has not reached the next point yet (waiting for the lock). */
  readonly running: boolean;
  /** Its grab's answer once done: HTTP status and error code. */
  readonly answer?: { readonly status: number; readonly code?: string };
}

/** The shared state, as the stack holds it now. */
export interface SchedShared {
  readonly stock: number;
  readonly grants: number;
  /** Whose owner value the lock key holds: 1, 2, or null (no key, or no buyer's). */
  readonly lockOwner: 1 | 2 | null;
  readonly lockValue: string | null;
  /** The lock key's time to live in ms (-2: no key). */
  readonly lockTtlMs: number;
}

export interface SchedRoundView {
  readonly id: string;
  readonly couponId: number;
  readonly strategy: SchedStrategy;
  readonly buyers: readonly SchedBuyer[];
  readonly shared: SchedShared;
  /** Once both buyers are done: the coupon's audit, and whether the challenge was met. */
  readonly audit?: { readonly oversold: number; readonly maxConcurrentHolders: number; readonly grants: number };
  readonly met?: boolean;
}
