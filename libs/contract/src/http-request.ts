import { ApiError, ApiUnreachableError } from './client-errors';

/** One request of a typed client: JSON in, the raw answer out. */
export interface JsonRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  /** Sent as `Authorization: Bearer …`. */
  readonly token?: string;
  readonly signal?: AbortSignal;
}

/** Sends `request` to `baseUrl`; no answer at all (refused, reset, timed out) is ApiUnreachableError. */
export async function send(baseUrl: string, request: JsonRequest): Promise<Response> {
  const headers: Record<string, string> = {};
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
  try {
    return await fetch(baseUrl + request.path, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal,
    });
  } catch (error) {
    throw new ApiUnreachableError(`${request.method} ${request.path}`, { cause: error });
  }
}

/** Sends `request` and parses its JSON answer; an error answer is ApiError with the body's code. */
export async function sendJson<T>(baseUrl: string, request: JsonRequest): Promise<T> {
  const res = await send(baseUrl, request);
  let text: string;
  try {
    text = await res.text();
  } catch (error) {
    throw new ApiUnreachableError(`${request.method} ${request.path}`, { cause: error });
  }
  if (!res.ok) throw apiError(`${request.method} ${request.path}`, res.status, text);
  return JSON.parse(text) as T;
}

/** The error for an answer that is not 2xx, with the contract's code when the body has one. */
export function apiError(request: string, status: number, text: string): ApiError {
  return new ApiError(request, status, errorCodeOf(text), text);
}

/** The contract error code an answer's body carries (`STOCK.SOLD_OUT`, …), or undefined. */
export function errorCodeOf(text: string): string | undefined {
  const code = parseObject(text)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The JSON object `text` holds, or undefined. */
export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
