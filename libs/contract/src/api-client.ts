import type {
  Audit,
  Coupon,
  CouponWithGrants,
  Grant,
  GrantLookup,
  LockEvent,
  OrderDeadLettered,
  OrderPending,
  ReconcileReport,
  StrategyEntry,
} from './answers';
import { observeGet, observePost, type CallAnswer, type GrabAnswer } from './call-answer';
import { ApiError } from './client-errors';
import { grabQuery, type GrabOptions } from './grab-options';
import { holdQuery, type HoldOptions } from './holds';
import { sendJson } from './http-request';
import type { RoomSettings } from './room';

export interface ApiClientOptions {
  /** nginx, or one replica. */
  readonly baseUrl: string;
  /** Needed for the admin calls only. */
  readonly adminToken?: string;
  /** Per request; a grab with long chaos stalls needs more. Default 30 s. */
  readonly timeoutMs?: number;
}

/** The typed client of the HTTP API (docs/api.md), for every tool and test of the project. */
export class ApiClient {
  private readonly timeoutMs: number;

  constructor(private readonly options: ApiClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** The same client aimed elsewhere (one replica directly). */
  at(baseUrl: string): ApiClient {
    return new ApiClient({ ...this.options, baseUrl });
  }

  strategies(): Promise<StrategyEntry[]> {
    return this.json('GET', '/strategies');
  }

  createCoupon(body: {
    name?: string;
    stock: number;
    segments?: number;
    room?: Pick<RoomSettings, 'admitPerSec'> & Partial<RoomSettings>;
  }): Promise<Coupon> {
    return this.json('POST', '/coupons', body, true);
  }

  resetCoupon(id: number, body: { stock: number; segments?: number }): Promise<Coupon> {
    return this.json('POST', `/coupons/${id}/reset`, body, true);
  }

  coupon(id: number): Promise<CouponWithGrants> {
    return this.json('GET', `/coupons/${id}`);
  }

  audit(id: number): Promise<Audit> {
    return this.json('GET', `/coupons/${id}/audit`);
  }

  grants(id: number): Promise<Grant[]> {
    return this.json('GET', `/coupons/${id}/grants`);
  }

  /** One user's grant; ApiError 404 GRANT.NOT_FOUND when it has none (how a buyer whose answer was lost learns). */
  grant(id: number, userId: string): Promise<Grant> {
    return this.json('GET', `/coupons/${id}/grants/${encodeURIComponent(userId)}`);
  }

  /**
   * One user's outcome, 404 and 410 included: the grant once persisted, the order id while an
   * accepted redis-stream order waits in Redis (202), the order given up and why (410), or none.
   */
  async lookupGrant(id: number, userId: string): Promise<GrantLookup> {
    try {
      const answer = await this.grant(id, userId);
      const pending = answer as Partial<OrderPending>;
      if (pending.status === 'pending' && typeof pending.orderId === 'string')
        return { state: 'pending', orderId: pending.orderId };
      return { state: 'granted', grant: answer };
    } catch (error) {
      if (error instanceof ApiError && error.errorCode === 'GRANT.NOT_FOUND') return { state: 'none' };
      if (error instanceof ApiError && error.errorCode === 'ORDER.DEAD_LETTERED') {
        const { orderId, reason } = JSON.parse(error.body) as Partial<OrderDeadLettered>;
        if (typeof orderId === 'string' && typeof reason === 'string')
          return { state: 'dead-lettered', orderId, reason };
      }
      throw error;
    }
  }

  /** Compares Redis's stock with the stock of record and repairs Redis (admin). */
  reconcile(id: number): Promise<ReconcileReport> {
    return this.json('POST', `/coupons/${id}/reconcile`, {}, true);
  }

  /** This replica's recent lock events on `resource` and its segments (call it on a replica's own URL). */
  lockEvents(resource: string, sinceMs = 0): Promise<LockEvent[]> {
    const query = new URLSearchParams({ resource, since: String(Math.floor(sinceMs)) });
    return this.json('GET', `/lock-events?${query.toString()}`);
  }

  /** The health check's status (200, or 503 naming what is down), or 0 when no answer came within `timeoutMs`. */
  async healthStatus(timeoutMs = 2000): Promise<number> {
    try {
      const res = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }

  /** True when the health check answers 200 within 2 s. */
  async healthy(): Promise<boolean> {
    return (await this.healthStatus()) === 200;
  }

  /**
   * One grab (`ticket`: the room's, for a coupon with a room); `signal` abandons it (status 0, code
   * `AbortError`). A stepped one carries the admin token.
   */
  async grab(
    couponId: number,
    userId: string,
    options: GrabOptions & { ticket?: string } = {},
    signal?: AbortSignal,
  ): Promise<GrabAnswer> {
    const path = `/coupons/${couponId}/grab?${grabQuery(options).toString()}`;
    const body = options.ticket === undefined ? { userId } : { userId, ticket: options.ticket };
    return { userId, ...(await this.call(path, body, signal, options.step !== undefined)) };
  }

  /** Joins the coupon's waiting room (202 `RoomTicket` in `body`). */
  joinRoom(couponId: number, userId: string, signal?: AbortSignal): Promise<CallAnswer> {
    return this.call(`/coupons/${couponId}/room`, { userId }, signal);
  }

  /** What a room ticket is now (200 `TicketState` in `body`). */
  ticketState(couponId: number, ticket: string, signal?: AbortSignal): Promise<CallAnswer> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const url = `${this.baseUrl}/coupons/${couponId}/room/${encodeURIComponent(ticket)}`;
    return observeGet(url, signal ? AbortSignal.any([timeout, signal]) : timeout);
  }

  /** Reserves a unit for `userId` until its deadline (201 `Hold` in `body`). */
  hold(couponId: number, userId: string, holdMs?: number, options: HoldOptions = {}): Promise<CallAnswer> {
    return this.call(`/coupons/${couponId}/holds${holdQuery(options)}`, { userId, holdMs });
  }

  /** Confirms a hold (200: the grant in `body`); `userId`, when given, must be the hold's buyer. */
  confirmHold(couponId: number, holdId: string, options: HoldOptions & { userId?: string } = {}): Promise<CallAnswer> {
    const { userId, ...rest } = options;
    return this.call(`/coupons/${couponId}/holds/${holdId}/confirm${holdQuery(rest)}`, userId ? { userId } : {});
  }

  /** Cancels a hold, its unit back in stock (200 `HoldCancelled`). */
  cancelHold(couponId: number, holdId: string, userId?: string): Promise<CallAnswer> {
    return this.call(`/coupons/${couponId}/holds/${holdId}/cancel`, userId ? { userId } : {});
  }

  /** A POST whose answer is observed, never thrown; `signal` abandons it (status 0, code `AbortError`). */
  private call(path: string, body: object, signal?: AbortSignal, admin = false): Promise<CallAnswer> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const token = admin ? (this.options.adminToken ?? '') : undefined;
    return observePost(`${this.baseUrl}${path}`, body, signal ? AbortSignal.any([timeout, signal]) : timeout, token);
  }

  private json<T>(method: string, path: string, body?: unknown, admin = false): Promise<T> {
    return sendJson<T>(this.baseUrl, {
      method,
      path,
      body,
      token: admin ? (this.options.adminToken ?? '') : undefined,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
  }
}
