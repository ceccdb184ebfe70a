import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RequestInvalidError } from '@app/apps-common';
import {
  SCHED_INFO,
  schedSteps,
  stepGateKeys,
  type CallAnswer,
  type SchedBuyer,
  type SchedRoundView,
  type SchedStep,
  type SchedStrategy,
} from '@app/contract';
import { lockKey, type LockKeys } from '../../../../walkthrough/lock-keys';
import { DependencyError } from '../common/lab.errors';
import type { LoadClients } from '../load/load-run';
import { roundMet, sharedState } from './sched-view';

const POLL_MS = 10;
/** How long a step is watched before its answer says it is still running (waiting for the lock). */
const SETTLE_MS = 1500;
/** Long enough to last the round: only the learner's "expire the lease" ends it early. */
const LEASE_MS = 600_000;
const WAIT_MS = 60_000;

interface Buyer {
  readonly buyer: 1 | 2;
  readonly replica: string;
  readonly gate: string;
  /** The gate's last mark: how many steps it reached, and the last one (or `released`). */
  mark?: { readonly n: number; readonly step: string };
  /** The mark's count when it was last told to go: running until the count passes it. */
  wentAt?: number;
  answer?: CallAnswer;
  /** Its lock owner value, once seen holding. */
  owner?: string;
}

/** One round of "be the scheduler": a coupon of one unit, two stepped grabs on two replicas. */
export class SchedRound {
  readonly id = randomUUID().slice(0, 8);
  private readonly buyers: Buyer[];
  private couponId = 0;

  constructor(
    readonly strategy: SchedStrategy,
    private readonly clients: LoadClients,
    private readonly keys: LockKeys,
  ) {
    const ids = clients.replicaIds;
    this.buyers = ([1, 2] as const).map((buyer) => ({
      buyer,
      replica: ids[(buyer - 1) % ids.length],
      gate: `sched-${this.id}-${buyer}`,
    }));
  }

  private get redis(): Redis {
    return this.keys.redis;
  }

  /** A fresh coupon and both grabs sent; answers once each waits at its first step. */
  async start(): Promise<SchedRoundView> {
    const coupon = await this.clients.nginx.createCoupon({ name: `scheduler ${this.strategy}`, stock: 1 });
    this.couponId = coupon.id;
    const leased = SCHED_INFO[this.strategy].leased;
    for (const b of this.buyers) {
      const options = { strategy: this.strategy, step: b.gate, ...(leased && { leaseMs: LEASE_MS, waitMs: WAIT_MS }) };
      void this.clients
        .replica(b.replica)
        .grab(this.couponId, `buyer-${b.buyer}`, options)
        .then((answer) => (b.answer = answer));
    }
    const deadline = Date.now() + 10_000;
    while (!this.buyers.every((b) => b.answer || b.mark)) {
      if (Date.now() > deadline) throw new DependencyError('the stepped grabs did not reach their first step in 10 s');
      await sleep(POLL_MS);
      await this.readMarks();
    }
    const refused = this.buyers.find((b) => b.answer && b.answer.status !== 200 && b.answer.status !== 409);
    if (refused)
      throw new DependencyError(
        `the replica refused a stepped grab: ${refused.answer!.status} ${refused.answer!.code ?? ''}`,
      );
    return this.view();
  }

  /** Buyer `n` runs its next step, and only that; answers once it reached the next point, or ended. */
  async step(n: number): Promise<SchedRoundView> {
    const b = this.buyers.find((x) => x.buyer === n);
    if (!b) throw new RequestInvalidError('buyer must be 1 or 2');
    await this.readMarks();
    if (b.answer) throw new RequestInvalidError(`buyer ${n} is done`);
    if (this.running(b)) throw new RequestInvalidError(`buyer ${n} is still running its last step`);
    b.wentAt = b.mark!.n;
    const go = stepGateKeys(b.gate).go;
    await this.redis.multi().rpush(go, 'go').pexpire(go, 60_000).exec();
    const deadline = Date.now() + SETTLE_MS;
    while (this.running(b) && Date.now() < deadline) {
      await sleep(POLL_MS);
      await this.readMarks();
    }
    return this.view();
  }

  /** The lock's lease runs out now: its key expires in Redis, as a lease left to run would. */
  async expireLease(): Promise<SchedRoundView> {
    if (!SCHED_INFO[this.strategy].leased) throw new RequestInvalidError(`${this.strategy} has no lease to expire`);
    await this.redis.pexpire(lockKey(this.couponId), 1);
    const deadline = Date.now() + 1000;
    while ((await this.redis.exists(lockKey(this.couponId))) && Date.now() < deadline) await sleep(POLL_MS);
    return this.view();
  }

  async view(): Promise<SchedRoundView> {
    await this.readMarks();
    // The buyers first, then the shared state: a buyer shown done has answered, so its lock and its
    // grant are already what the state shows (read first, a release could land between the two).
    const buyers: SchedBuyer[] = this.buyers.map((b) => ({
      buyer: b.buyer,
      replica: b.replica,
      next: b.answer ? 'done' : this.nextStep(b),
      running: !b.answer && this.running(b),
      ...(b.answer && { answer: { status: b.answer.status, ...(b.answer.code && { code: b.answer.code }) } }),
    }));
    const shared = await sharedState(this.clients.nginx, this.keys, this.couponId, this.ownerOf);
    const base = { id: this.id, couponId: this.couponId, strategy: this.strategy, buyers, shared };
    if (!buyers.every((b) => b.answer)) return base;
    const { oversold, maxConcurrentHolders, grants } = await this.clients.nginx.audit(this.couponId);
    const audit = { oversold, maxConcurrentHolders, grants };
    return { ...base, audit, met: roundMet(this.strategy, audit) };
  }

  private readonly ownerOf = (value: string | null): 1 | 2 | null =>
    this.buyers.find((b) => value !== null && b.owner === value)?.buyer ?? null;

  private nextStep(b: Buyer): SchedStep {
    const step = b.mark?.step;
    return step && step !== 'released' ? (step as SchedStep) : schedSteps(this.strategy)[0];
  }

  private running(b: Buyer): boolean {
    if (b.answer) return false;
    if (b.mark?.step === 'released') return true;
    return b.wentAt !== undefined && (b.mark?.n ?? 0) <= b.wentAt;
  }

  /** The gates' marks; a buyer past its acquire step owns the lock value no other buyer owns. */
  private async readMarks(): Promise<void> {
    for (const b of this.buyers) {
      const raw = await this.redis.get(stepGateKeys(b.gate).at);
      const match = raw ? /^(\d+):(.+)$/.exec(raw) : null;
      if (match) b.mark = { n: Number(match[1]), step: match[2] };
    }
    if (!SCHED_INFO[this.strategy].leased) return;
    const held = await this.keys.peek(lockKey(this.couponId));
    for (const b of this.buyers) {
      const past = b.mark && !['acquire', 'released'].includes(b.mark.step) && !b.answer;
      if (past && !b.owner && held.holder && !this.buyers.some((o) => o.owner === held.holder)) b.owner = held.holder;
    }
  }
}
