/**
 * How a coupon's reset reaches every process's sold-out memo, over PostgreSQL's own LISTEN/NOTIFY
 * (so the database strategies never come to depend on Redis):
 *
 * 1. Each process keeps one listening session, named LISTENER_NAME once it listens. It takes that
 *    name under a shared advisory lock, so it appears either before a reset lists the listeners or
 *    only after that reset committed (its memo then starts empty and reads post-reset stock).
 * 2. A reset, in its own transaction and under the exclusive lock, NOTIFYs RESET_CHANNEL and lists
 *    the listeners; the notice is delivered at COMMIT.
 * 3. Each listener forgets the coupon and acknowledges on ACK_CHANNEL. The reset answers only
 *    once every listed session has acknowledged; one that does not within the timeout has its
 *    session terminated, and a process whose session drops forgets every memo.
 * 4. A silent session may be half-open, or its process frozen: neither learns of the termination.
 *    So each process trusts its memo only for TRUST_MS after its session last answered a
 *    heartbeat (sent every HEARTBEAT_MS), and a reset that had a silent session waits TRUST_MS
 *    after terminating it before it answers: by then that process answers from the database.
 *
 * The listening session needs a direct (or session-mode pooled) connection: LISTEN and session
 * advisory locks do not survive a transaction-mode pooler.
 */
export const RESET_CHANNEL = 'oversell_stock_reset';
export const ACK_CHANNEL = 'oversell_stock_reset_ack';
export const LISTENER_NAME = 'oversell-stock-listener';
export const ACK_TIMEOUT_MS = 2000;
export const HEARTBEAT_MS = 1000;
export const TRUST_MS = 3000;

export interface ResetNotice {
  readonly couponId: number;
  readonly resetId: string;
}

/** Sent by the acknowledging listener's own session, so its backend pid comes with the notice. */
export interface ResetAck {
  readonly resetId: string;
}

/** The notice's payload, or undefined for anything malformed (NOTIFY is open to every session). */
export function parseNotice<T extends ResetNotice | ResetAck>(
  payload: string | undefined,
  key: keyof T,
): T | undefined {
  try {
    const parsed = JSON.parse(payload ?? '') as T;
    return typeof parsed === 'object' && parsed !== null && key in parsed ? parsed : undefined;
  } catch {
    return undefined;
  }
}
