import {
  ApiClient,
  runCrowd,
  type Audit,
  type CallAnswer,
  type Coupon,
  type CrowdBuyer,
  type CrowdOptions,
  type GrabAnswer,
  type GrabOptions,
  type Grant,
  type HoldOptions,
  type LockEvent,
  type ReconcileReport,
} from '@app/contract';
import { StepSetupError } from './walkthrough.errors';

/** One replica of the stack, as stack.json names it. */
export interface Replica {
  readonly id: string;
  readonly url: string;
}

/** A grab of a step: the strategy always, and `via` a replica id to send it to that replica directly. */
export interface StepGrab extends GrabOptions {
  readonly strategy: string;
  readonly via?: string;
}

// Steps stall holders on purpose (pauses, freezes, leases that run out): answers may take minutes.
const REQUEST_TIMEOUT_MS = 150_000;

/** The HTTP API as the walkthrough uses it: through nginx, or one replica directly. */
export class StackApi {
  private readonly nginx: ApiClient;
  private readonly direct: ReadonlyMap<string, ApiClient>;

  /** `signal` (optional) ends the walkthrough early: grabs in flight are abandoned, and later ones not sent. */
  constructor(
    readonly nginxUrl: string,
    readonly replicas: readonly Replica[],
    adminToken: string,
    private readonly signal?: AbortSignal,
  ) {
    this.nginx = new ApiClient({ baseUrl: nginxUrl, adminToken, timeoutMs: REQUEST_TIMEOUT_MS });
    this.direct = new Map(replicas.map((r) => [r.id, this.nginx.at(r.url)]));
  }

  replicaUrl(id: string): string {
    return this.replica(id).baseUrl;
  }

  /** The strategies every replica offers (asked of each: a replica left on an older build offers fewer). */
  async strategies(): Promise<string[]> {
    const lists = await Promise.all([...this.direct.values()].map((c) => c.strategies()));
    return lists.reduce<string[]>((common, list, i) => {
      const names = list.map((s) => s.name);
      return i === 0 ? names : common.filter((n) => names.includes(n));
    }, []);
  }

  createCoupon(body: Parameters<ApiClient['createCoupon']>[0]): Promise<Coupon> {
    return this.nginx.createCoupon(body);
  }

  resetCoupon(id: number, body: { stock: number; segments?: number }): Promise<Coupon> {
    return this.nginx.resetCoupon(id, body);
  }

  audit(id: number): Promise<Audit> {
    return this.nginx.audit(id);
  }

  grants(id: number): Promise<Grant[]> {
    return this.nginx.grants(id);
  }

  /** One buyer's grant, as a buyer whose answer was lost asks for it (ApiError 404 GRANT.NOT_FOUND: none). */
  grant(id: number, userId: string): Promise<Grant> {
    return this.nginx.grant(id, userId);
  }

  /** Redis's stock (redis-lua) held against the stock of record, and repaired from it (admin). */
  reconcile(id: number): Promise<ReconcileReport> {
    return this.nginx.reconcile(id);
  }

  /** Every replica's recent lock events on `resource`, merged in time order. */
  async lockEvents(resource: string): Promise<LockEvent[]> {
    const lists = await Promise.all(
      [...this.direct].map(async ([id, client]) =>
        (await client.lockEvents(resource)).map((e) => ({ ...e, replica: e.replica ?? id })),
      ),
    );
    return lists.flat().sort((a, b) => a.at - b.at);
  }

  /** True when the replica answers its health check. */
  healthy(replicaId: string): Promise<boolean> {
    return this.replica(replicaId).healthy();
  }

  /**
   * One grab; never throws for an HTTP answer or a dropped connection, which steps observe. Once the
   * signal fired nothing more is sent: the answer is then a dropped one (status 0, `AbortError`).
   */
  grab(couponId: number, userId: string, { via, ...options }: StepGrab): Promise<GrabAnswer> {
    if (this.signal?.aborted) {
      const now = Date.now();
      return Promise.resolve({ userId, status: 0, code: 'AbortError', sentAt: now, answeredAt: now });
    }
    return (via ? this.replica(via) : this.nginx).grab(couponId, userId, options, this.signal);
  }

  /** Holds through nginx (POST /coupons/:id/holds…): answers observed, never thrown. */
  hold(couponId: number, userId: string, holdMs: number, options: HoldOptions = {}): Promise<CallAnswer> {
    return this.nginx.hold(couponId, userId, holdMs, options);
  }

  confirmHold(couponId: number, holdId: string, options: HoldOptions = {}): Promise<CallAnswer> {
    return this.nginx.confirmHold(couponId, holdId, options);
  }

  /** A crowd at T0 through nginx, open loop (runCrowd): what each buyer saw. Plain grabs only, no chaos. */
  crowd(couponId: number, options: CrowdOptions): Promise<CrowdBuyer[]> {
    this.signal?.throwIfAborted();
    return runCrowd(this.nginx, couponId, options);
  }

  private replica(id: string): ApiClient {
    const client = this.direct.get(id);
    if (!client) throw new StepSetupError(`no replica ${id} (have ${[...this.direct.keys()].join(', ')})`);
    return client;
  }
}
