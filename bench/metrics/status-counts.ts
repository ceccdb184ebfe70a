import type { StatusCounts } from '../types';

type Counter = { -readonly [K in keyof StatusCounts]: StatusCounts[K] };

export function emptyStatusCounts(): Counter {
  return {
    granted: 0,
    soldOut: 0,
    duplicate: 0,
    fenceRejected: 0,
    lockTimeout: 0,
    otherClientError: 0,
    serverError: 0,
    errors: 0,
    timeouts: 0,
  };
}

/** The error code of a contract error body (`{ code, message }`), or undefined. */
function errorCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

/** Which bucket an HTTP answer falls in: 409s are told apart by their code. */
export function classify(status: number, body: string): keyof StatusCounts {
  if (status === 200) return 'granted';
  if (status >= 500) return 'serverError';
  if (status === 429) return 'lockTimeout';
  if (status === 409) {
    const code = errorCode(body);
    if (code === 'STOCK.SOLD_OUT') return 'soldOut';
    if (code === 'GRANT.DUPLICATE') return 'duplicate';
    if (code === 'FENCE.REJECTED') return 'fenceRejected';
  }
  return 'otherClientError';
}

export function countStatus(counts: Counter, status: number, body: string): void {
  counts[classify(status, body)] += 1;
}
