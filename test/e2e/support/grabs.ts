import { ApiClient, type Audit, type ErrorBody, type GrabGranted } from '@app/contract';
import { http, type StackInfo } from './stack';

/** A grab's JSON answer: the grant on 200 (`fenceToken` from fenced, `retries` from db-optimistic), else an error. */
export type GrabAnswer = Partial<GrabGranted> & Partial<ErrorBody>;

export interface Burst {
  /** Answers by "status" or "status code", e.g. { '200': 50, '409 STOCK.SOLD_OUT': 250 }. */
  readonly counts: Record<string, number>;
  readonly granted: number;
}

/** `n` grabs at once by distinct users, all sent before any answer is awaited. */
export async function burst(
  baseUrl: string,
  couponId: number | string,
  n: number,
  query: Record<string, string | number>,
): Promise<Burst> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      http<GrabAnswer>('POST', `${baseUrl}/coupons/${couponId}/grab?${qs}`, { userId: `u-${run}-${i}` }).then(
        (res) => (res.status === 200 ? '200' : `${res.status} ${res.body?.code ?? ''}`.trim()),
        (error: Error) => `error ${(error.cause as { code?: string })?.code ?? error.message}`,
      ),
    ),
  );
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer] = (counts[answer] ?? 0) + 1;
  return { counts, granted: counts['200'] ?? 0 };
}

export function audit(info: StackInfo, couponId: number): Promise<Audit> {
  return new ApiClient({ baseUrl: info.nginxUrl }).audit(couponId);
}

export async function strategyNames(info: StackInfo): Promise<string[]> {
  return (await new ApiClient({ baseUrl: info.nginxUrl }).strategies()).map((s) => s.name);
}
