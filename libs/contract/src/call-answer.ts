import { parseObject } from './http-request';

/** What one call got: never thrown, since an error answer is what callers observe. */
export interface CallAnswer {
  /** HTTP status, or 0 when no answer came (connection refused or reset, timeout). */
  readonly status: number;
  /** The error code of a non-2xx answer, or the network error's (`ECONNRESET`, `TimeoutError`). */
  readonly code?: string;
  /** The replica that answered (`X-Replica`). */
  readonly replica?: string;
  /** On nginx's own 502/504: the replica that failed it (`X-Upstream`, host:port). */
  readonly upstream?: string;
  /** The answer's JSON: the grant on 200, `{ code, message, … }` otherwise. */
  readonly body?: Record<string, unknown>;
  readonly sentAt: number;
  readonly answeredAt: number;
}

/** What one grab got. */
export interface GrabAnswer extends CallAnswer {
  readonly userId: string;
}

/** A POST whose answer is observed, never thrown: a network error is status 0 with its code. */
export function observePost(url: string, body: object, signal: AbortSignal, token?: string): Promise<CallAnswer> {
  const headers = {
    'content-type': 'application/json',
    ...(token !== undefined && { authorization: `Bearer ${token}` }),
  };
  const init = { method: 'POST', headers, body: JSON.stringify(body) };
  return observe(url, init, signal);
}

/** A GET whose answer is observed, never thrown. */
export function observeGet(url: string, signal: AbortSignal): Promise<CallAnswer> {
  return observe(url, { method: 'GET' }, signal);
}

async function observe(url: string, init: RequestInit, signal: AbortSignal): Promise<CallAnswer> {
  const sentAt = Date.now();
  try {
    const res = await fetch(url, { ...init, signal });
    const answer = parseObject(await res.text());
    const code = res.ok || typeof answer?.code !== 'string' ? undefined : answer.code;
    const replica = res.headers.get('x-replica') ?? undefined;
    // nginx lists every upstream it tried; a POST is never re-sent, so the last is the one that failed.
    const upstream = res.headers.get('x-upstream')?.split(',').at(-1)?.trim() || undefined;
    return { status: res.status, code, replica, upstream, body: answer, sentAt, answeredAt: Date.now() };
  } catch (error) {
    return { status: 0, code: networkCode(error), sentAt, answeredAt: Date.now() };
  }
}

function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : ((error as Error).name ?? 'Error');
}
