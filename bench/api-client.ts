import type { Audit, GrantRow } from './types';

export interface StrategyInfo {
  readonly name: string;
  readonly fixes?: string;
  readonly breaks?: string;
}

export interface Coupon {
  readonly id: number;
  readonly stock: number;
  readonly segments: number;
}

/** One lock event as a replica's GET /lock-events reports it. */
export interface LockEventRow {
  readonly type: string;
  readonly strategy: string;
  /** Epoch ms. */
  readonly at: number;
  readonly durationMs?: number;
  readonly replica?: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code = 'BENCH.API';
  constructor(
    readonly status: number,
    what: string,
    body: string,
  ) {
    super(`${what} answered ${status}: ${body.slice(0, 200)}`);
  }
}

/** The contract's HTTP API as the bench uses it: admin calls plus the read endpoints for tools. */
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  strategies(): Promise<StrategyInfo[]> {
    return this.call('GET', '/strategies');
  }

  createCoupon(name: string, stock: number, segments: number): Promise<Coupon> {
    return this.call('POST', '/coupons', { name, stock, segments }, true);
  }

  audit(id: number): Promise<Audit> {
    return this.call('GET', `/coupons/${id}/audit`);
  }

  grants(id: number): Promise<GrantRow[]> {
    return this.call('GET', `/coupons/${id}/grants`);
  }

  /** Recent lock events of one replica on `resource` and its segments (call it on the replica's own URL). */
  lockEvents(resource: string, sinceMs = 0): Promise<LockEventRow[]> {
    return this.call('GET', `/lock-events?resource=${encodeURIComponent(resource)}&since=${Math.floor(sinceMs)}`);
  }

  private async call<T>(method: string, path: string, body?: unknown, admin = false): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (admin) headers.authorization = `Bearer ${this.adminToken}`;
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, `${method} ${path}`, text);
    return JSON.parse(text) as T;
  }
}
