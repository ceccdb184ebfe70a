/** What one node answered to an acquisition: the pure inputs of the Redlock arithmetic. */
export type NodeVote = 'granted' | 'taken' | 'timeout' | 'down';

/** The Redlock paper's drift allowance: 1% of the lease plus 2 ms for timer granularity. */
export const DEFAULT_DRIFT_FACTOR = 0.01;
const DRIFT_FLOOR_MS = 2;

/** Votes needed out of `nodeCount`: a strict majority, so two holders can never both have one. */
export function quorumOf(nodeCount: number): number {
  return Math.floor(nodeCount / 2) + 1;
}

/** How far the nodes' clocks may run ahead of ours during one lease. */
export function clockDriftMs(leaseMs: number, driftFactor = DEFAULT_DRIFT_FACTOR): number {
  return Math.round(leaseMs * driftFactor) + DRIFT_FLOOR_MS;
}

/** Time left to use the lock, counted from the start of the attempt that won it. */
export function validityMs(leaseMs: number, elapsedMs: number, driftFactor = DEFAULT_DRIFT_FACTOR): number {
  return leaseMs - elapsedMs - clockDriftMs(leaseMs, driftFactor);
}

export interface QuorumVerdict {
  readonly acquired: boolean;
  readonly granted: number;
  readonly quorum: number;
  /** Positive only when the lock is usable; ≤ 0 means the attempt took too long. */
  readonly validityMs: number;
}

/** An attempt wins only with a majority of grants AND validity time left once they all came in. */
export function judgeAttempt(
  votes: readonly NodeVote[],
  leaseMs: number,
  elapsedMs: number,
  driftFactor = DEFAULT_DRIFT_FACTOR,
): QuorumVerdict {
  const granted = votes.filter((vote) => vote === 'granted').length;
  const quorum = quorumOf(votes.length);
  const validity = validityMs(leaseMs, elapsedMs, driftFactor);
  return { acquired: granted >= quorum && validity > 0, granted, quorum, validityMs: validity };
}

/** The backoff window stops doubling here: waiters keep retrying at least this often. */
export const MAX_RETRY_WINDOW_MS = 500;

/**
 * A random pause before attempt `attempt + 1`, never past the wait budget. Random, so contenders
 * that split the votes do not retry in step and split them again; drawn from a window that doubles
 * with each failed attempt, so hundreds of waiters do not flood the nodes with doomed attempts.
 */
export function retryDelayMs(
  jitterMs: number,
  attempt: number,
  remainingMs: number,
  random: () => number = Math.random,
): number {
  const window = Math.min(jitterMs * 2 ** Math.min(attempt - 1, 16), Math.max(jitterMs, MAX_RETRY_WINDOW_MS));
  const delay = 1 + Math.floor(random() * window);
  return Math.max(0, Math.min(delay, remainingMs));
}

/** One line for logs and timeout events: `2/5 granted (quorum 3): a=granted b=down …`. */
export function describeVotes(labels: readonly string[], votes: readonly NodeVote[]): string {
  const granted = votes.filter((vote) => vote === 'granted').length;
  const each = votes.map((vote, i) => `${labels[i]}=${vote}`).join(' ');
  return `${granted}/${votes.length} granted (quorum ${quorumOf(votes.length)}): ${each}`;
}
