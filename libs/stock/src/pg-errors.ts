import { StockUnavailableError } from './stock.errors';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03']);

function driverError(error: unknown): { code?: string; message?: string; constraint?: string } {
  const e = error as { driverError?: unknown };
  return (e?.driverError ?? error) as { code?: string; message?: string; constraint?: string };
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = driverError(error);
  return e?.code === '23505' && (!constraint || e.constraint === constraint);
}

/** Connection-level failures: PostgreSQL down, restarting, or out of reach. */
export function isConnectionError(error: unknown): boolean {
  const e = driverError(error);
  if (!e) return false;
  if (e.code && (CONNECTION_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(
    e.message ?? '',
  );
}

/** PostgreSQL cancelled the statement at its statement_timeout, or the client stopped waiting. */
export function isTimeout(error: unknown): boolean {
  const e = driverError(error);
  return e?.code === '57014' || /Query read timeout/i.test(e?.message ?? '');
}

/**
 * The statement failed for the data it wrote: SQLSTATE class 22 (data exception) or 23 (integrity
 * constraint violation). Any other failure (a full disk, a read-only standby after a failover, a
 * deadlock, a shutdown, no SQLSTATE at all: a lost connection, a timeout) is the database's state,
 * never the fault of the rows written.
 */
export function isOrderDataError(error: unknown): boolean {
  const code = driverError(error)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

/** Rethrows connection failures and timeouts as StockUnavailableError, anything else as is. */
export function translateDbError(error: unknown): never {
  if (isConnectionError(error) || isTimeout(error)) throw new StockUnavailableError({ cause: error });
  throw error;
}
