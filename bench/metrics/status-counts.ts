import { isContractGrabAnswer } from '@app/contract';
import type { StatusCounts } from '../types';

type Counter = { -readonly [K in keyof StatusCounts]: StatusCounts[K] };

export function emptyStatusCounts(): Counter {
  return {
    granted: 0,
    soldOut: 0,
    duplicate: 0,
    fenceRejected: 0,
    lockTimeout: 0,
    unavailable: 0,
    outsideContract: 0,
    errors: 0,
    timeouts: 0,
  };
}

/** The error code of a contract error body (`{ code, message }`), or undefined. */
export function errorCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which bucket an HTTP answer falls in: told apart by status and code, anything else is outside the
 * contract. `success` is the design's own success answer: 200 granted, or 202 accepted (redis-stream).
 */
export function classify(status: number, body: string, success = 200): keyof StatusCounts {
  if (status === success) return 'granted';
  if (status === 200 || status === 202) return 'outsideContract';
  const code = errorCode(body);
  if (!isContractGrabAnswer(status, code)) return 'outsideContract';
  if (code === 'STOCK.SOLD_OUT') return 'soldOut';
  if (code === 'GRANT.DUPLICATE') return 'duplicate';
  if (code === 'FENCE.REJECTED') return 'fenceRejected';
  return status === 429 ? 'lockTimeout' : 'unavailable';
}

export function countStatus(counts: Counter, status: number, body: string, success = 200): void {
  counts[classify(status, body, success)] += 1;
}

/** Answers that turned a buyer away while stock may have been left (a refused fencing token too). */
export function turnedAwayUnserved(s: StatusCounts): number {
  return s.fenceRejected + s.lockTimeout + s.unavailable + s.outsideContract + s.errors + s.timeouts;
}
