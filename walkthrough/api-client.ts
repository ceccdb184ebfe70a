import { ApiError } from './walkthrough.errors';

/** The contract's HTTP API, as the walkthrough uses it: through nginx, or one replica directly. */

export interface Replica {
  readonly id: string;
  readonly url: string;
}

export interface Coupon {
  readonly id: number | string;
  readonly name: string;
  readonly stock: number;
  readonly initialStock: number;
  readonly segments: number;
}

export interface Audit {
  readonly initialStock: number;
  readonly stock: number;
  readonly grants: number;
  readonly oversold: number;
  readonly lostUpdates: number;
  readonly maxConcurrentHolders: number;
}

export interface Grant {
  readonly userId: string;
  readonly replica: string;
  readonly strategy: string;
  readonly segment: number;
  readonly fenceToken: number | null;
  readonly enteredAt: string;
  readonly leftAt: string;
}

export interface LockEventRecord {
  readonly type: string;
  readonly strategy: string;
  readonly resource: string;
  readonly owner: string;
  readonly at: number;
  readonly durationMs?: number;
  readonly detail?: string;
  readonly replica: string;
}

/** The chaos options and the rest of a grab's query. */
export interface GrabOptions {
  readonly strategy: string;
  /** A replica id to send to directly; through nginx when absent. */
  readonly via?: string;
  readonly workMs?: number;
  readonly leaseMs?: number;
  readonly waitMs?: number;
  readonly pauseMs?: number;
  readonly freezeMs?: number;
  readonly crash?: boolean;
  readonly nested?: boolean;
}

export interface GrabResult {
  readonly userId: string;
  /** HTTP status, or 0 when the connection failed (the replica died mid-request). */
  readonly status: number;
  /** The error code of a non-2xx answer (`LOCK.TIMEOUT`, …), or the network error's. */
  readonly code?: string;
  readonly replica?: string;
  /** The answer's JSON (e.g. `retries` of db-optimistic, `fenceToken` of fenced). */
  readonly body?: Record<string, unknown>;
  readonly sentAt: number;
  readonly answeredAt: number;
}

const REQUEST_TIMEOUT_MS = 150_000;

export class ApiClient {
  constructor(
    readonly nginxUrl: string,
    readonly replicas: readonly Replica[],
    private readonly adminToken: string,
  ) {}

  replicaUrl(id: string): string {
    const replica = this.replicas.find((r) => r.id === id);
    if (!replica) throw new ApiError(`no replica ${id} (have ${this.replicas.map((r) => r.id).join(', ')})`, 0);
    return replica.url;
  }

  /** The strategies every replica offers (asked of each: a replica left on an older build offers fewer). */
  async strategies(): Promise<string[]> {
    const lists = await Promise.all(
      this.replicas.map((r) => this.json<Array<{ name: string }>>('GET', `${r.url}/strategies`)),
    );
    return lists.reduce<string[]>((common, list, i) => {
      const names = list.map((s) => s.name);
      return i === 0 ? names : common.filter((n) => names.includes(n));
    }, []);
  }

  createCoupon(body: { name: string; stock: number; segments?: number }): Promise<Coupon> {
    return this.json('POST', `${this.nginxUrl}/coupons`, body, true);
  }

  resetCoupon(id: Coupon['id'], body: { stock: number; segments?: number }): Promise<Coupon> {
    return this.json('POST', `${this.nginxUrl}/coupons/${id}/reset`, body, true);
  }

  audit(id: Coupon['id']): Promise<Audit> {
    return this.json('GET', `${this.nginxUrl}/coupons/${id}/audit`);
  }

  grants(id: Coupon['id']): Promise<Grant[]> {
    return this.json('GET', `${this.nginxUrl}/coupons/${id}/grants`);
  }

  /** Every replica's recent lock events on `resource`, merged in time order. */
  async lockEvents(resource: string): Promise<LockEventRecord[]> {
    const lists = await Promise.all(
      this.replicas.map((r) =>
        this.json<LockEventRecord[]>('GET', `${r.url}/lock-events?resource=${encodeURIComponent(resource)}`).then(
          (events) => events.map((e) => ({ ...e, replica: e.replica ?? r.id })),
        ),
      ),
    );
    return lists.flat().sort((a, b) => a.at - b.at);
  }

  /** True when the replica answers its health check. */
  async healthy(replicaId: string): Promise<boolean> {
    try {
      const res = await fetch(`${this.replicaUrl(replicaId)}/health`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return res.ok;
    } catch {
      return false;
    }
  }

  /** One grab; never throws for an HTTP answer or a dropped connection, which steps observe. */
  async grab(couponId: Coupon['id'], userId: string, options: GrabOptions): Promise<GrabResult> {
    const base = options.via ? this.replicaUrl(options.via) : this.nginxUrl;
    const url = `${base}/coupons/${couponId}/grab?${grabQuery(options)}`;
    const sentAt = Date.now();
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      const body = text ? (JSON.parse(text) as Record<string, unknown> & { code?: string }) : {};
      return {
        userId,
        status: res.status,
        code: res.ok ? undefined : body.code,
        body,
        replica: res.headers.get('x-replica') ?? undefined,
        sentAt,
        answeredAt: Date.now(),
      };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      return { userId, status: 0, code: cause?.code ?? (error as Error).name, sentAt, answeredAt: Date.now() };
    }
  }

  private async json<T>(method: string, url: string, body?: unknown, admin = false): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (admin) headers.authorization = `Bearer ${this.adminToken}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ApiError(`${method} ${url} failed: ${(error as Error).message}`, 0, { cause: error });
    }
    const text = await res.text();
    if (!res.ok) throw new ApiError(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`, res.status);
    return JSON.parse(text) as T;
  }
}

/** The grab's query string: only the options given, chaos flags as `1`. */
export function grabQuery(options: GrabOptions): string {
  const query = new URLSearchParams({ strategy: options.strategy });
  for (const key of ['workMs', 'leaseMs', 'waitMs', 'pauseMs', 'freezeMs'] as const) {
    const value = options[key];
    if (value !== undefined) query.set(key, String(value));
  }
  if (options.crash) query.set('crash', '1');
  if (options.nested) query.set('nested', '1');
  return query.toString();
}
