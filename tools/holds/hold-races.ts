import { Client } from 'pg';
import { ApiClient, type Audit, type CallAnswer, type Hold } from '@app/contract';
import type { StackInfo } from '../stack/stack';
import { clientNowMs, databaseClockOffsetMs, until } from './send-at';

/** What N confirm-versus-expiry races left behind, read from the database. */
export interface HoldRaceReport {
  readonly races: number;
  /** Confirms answered 200, and 409 HOLD.EXPIRED. */
  readonly confirmed: number;
  readonly refused: number;
  /** Answers other than those two (500s, drops): outside the contract. */
  readonly otherAnswers: number;
  /** Holds that ended both confirmed (a grant) and returned (a unit back in stock). */
  readonly twoOutcomes: number;
  /** Holds whose unit went back more than once. */
  readonly returnedTwice: number;
  /** A 200 without a grant, or a grant behind a 409. */
  readonly answersAgainstDatabase: number;
  readonly audit: Audit;
  /** confirmed + stock + held = initial. */
  readonly exact: boolean;
  /** Confirm send time minus its hold's deadline (less leadMs) on the database's clock, ms: the spread, and how many within ± jitterMs. */
  readonly offsetMs: { readonly min: number; readonly max: number; readonly within: number };
  /** How long after its deadline an expired hold's unit was held again by another buyer, ms (each sample). */
  readonly reheldAfterMs: readonly number[];
  /** The naive path (holds=naive), raced once on observed state: grants of its one unit. */
  readonly naiveGrants: number;
}

export interface HoldRaceOptions {
  readonly races: number;
  /** A race starts every gapMs. */
  readonly gapMs?: number;
  /** Confirms go out within ± this of the deadline. */
  readonly jitterMs?: number;
  /** Confirms aim this much before the deadline (0: at it), to offset their own travel to the database. */
  readonly leadMs?: number;
  /** Samples of "held again after the deadline". */
  readonly reholdSamples?: number;
  readonly log?: (line: string) => void;
}

const HOLD_MS = 1500;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Races a confirm against the expiry of each of `races` holds, across every replica directly (hold
 * on one, confirm on the next): each confirm is sent at its hold's deadline ± `jitterMs`, the
 * deadline read on the database's clock. Then one naive race, and how soon an expired unit can be
 * held again.
 */
export async function runHoldRaces(info: StackInfo, options: HoldRaceOptions): Promise<HoldRaceReport> {
  const { races, gapMs = 10, jitterMs = 5, leadMs = 0, reholdSamples = 10, log = () => undefined } = options;
  const nginx = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });
  const replicas = info.replicas.map((r) => nginx.at(r.url));
  const coupon = await nginx.createCoupon({ name: 'hold races', stock: races });
  // Deadlines are set by the database's clock; read how far ours is from it once, not per race.
  const clockOffsetMs = await databaseClockOffsetMs(info.databaseUrl);
  const offsets: number[] = [];
  // One hold opened at a time, at least gapMs apart: the deadlines, hence the confirms, never
  // bunch, so no confirm waits behind another in this client.
  const raced: Promise<{ holdId: string; answer: CallAnswer }>[] = [];
  let openedAt = -Infinity;
  for (let i = 0; i < races; i++) {
    await sleep(openedAt + gapMs - clientNowMs());
    openedAt = clientNowMs();
    const opened = await replicas[i % replicas.length].hold(coupon.id, `racer-${i}`, HOLD_MS);
    if (opened.status !== 201) throw new Error(`hold ${i} answered ${opened.status} ${opened.code}`);
    raced.push(confirmAtDeadline(i, opened.body as unknown as Hold));
    if ((i + 1) % 1000 === 0) log(`${i + 1}/${races} holds opened`);
  }
  const answers = await Promise.all(raced);

  async function confirmAtDeadline(i: number, hold: Hold): Promise<{ holdId: string; answer: CallAnswer }> {
    const deadline = Date.parse(hold.expiresAt) - clockOffsetMs - leadMs;
    await until(deadline + (Math.random() * 2 - 1) * jitterMs);
    offsets.push(clientNowMs() - deadline);
    return {
      holdId: hold.holdId,
      answer: await replicas[(i + 1) % replicas.length].confirmHold(coupon.id, hold.holdId),
    };
  }
  const audit = await untilNoneHeld(nginx, coupon.id);
  const outcomes = await holdOutcomes(info.databaseUrl, coupon.id);
  const count = (status: number) => answers.filter((a) => a.answer.status === status).length;
  return {
    races,
    confirmed: count(200),
    refused: answers.filter((a) => a.answer.status === 409 && a.answer.code === 'HOLD.EXPIRED').length,
    otherAnswers: answers.filter((a) => a.answer.status !== 200 && a.answer.code !== 'HOLD.EXPIRED').length,
    twoOutcomes: outcomes.twoOutcomes,
    returnedTwice: outcomes.returnedTwice,
    answersAgainstDatabase: answers.filter((a) => (a.answer.status === 200) !== outcomes.granted.has(a.holdId)).length,
    audit,
    exact: audit.initialStock === audit.stock + (audit.held ?? 0) + (audit.confirmed ?? 0),
    offsetMs: {
      min: Math.min(...offsets),
      max: Math.max(...offsets),
      within: offsets.filter((o) => Math.abs(o) <= jitterMs).length,
    },
    reheldAfterMs: await reheldAfter(nginx, reholdSamples),
    naiveGrants: await naiveRace(nginx),
  };
}

/** What the database says of a coupon's holds: those with two outcomes, those returned twice, those granted. */
export async function holdOutcomes(
  databaseUrl: string,
  couponId: number,
): Promise<{ twoOutcomes: number; returnedTwice: number; granted: Set<string> }> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string; granted: boolean; returned: number }>(
      `SELECT h.id::text, EXISTS (SELECT 1 FROM grants g WHERE g.hold_id = h.id) AS granted, h.returned
         FROM holds h WHERE h.coupon_id = $1`,
      [couponId],
    );
    return {
      twoOutcomes: rows.filter((r) => r.granted && r.returned > 0).length,
      returnedTwice: rows.filter((r) => r.returned > 1).length,
      granted: new Set(rows.filter((r) => r.granted).map((r) => r.id)),
    };
  } finally {
    await db.end();
  }
}

export async function untilNoneHeld(api: ApiClient, couponId: number, timeoutMs = 30_000): Promise<Audit> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const audit = await api.audit(couponId);
    if (audit.held === 0 || Date.now() > giveUpAt) return audit;
    await sleep(50);
  }
}

/** A buyer holds the last unit and never pays; another asks every 10 ms from the deadline on. */
async function reheldAfter(api: ApiClient, samples: number): Promise<number[]> {
  const after: number[] = [];
  for (let i = 0; i < samples; i++) {
    const coupon = await api.createCoupon({ name: 'rehold', stock: 1 });
    const first = await api.hold(coupon.id, 'first', 300);
    const deadline = Date.parse(String(first.body?.expiresAt));
    await sleep(deadline - Date.now());
    while ((await api.hold(coupon.id, 'second', 60_000)).status !== 201 && Date.now() - deadline < 5_000)
      await sleep(10);
    after.push(Date.now() - deadline);
  }
  return after;
}

/** One naive race, sequenced on observed state (raceExpiry): how many grants its one unit got. */
async function naiveRace(api: ApiClient): Promise<number> {
  const coupon = await api.createCoupon({ name: 'naive race', stock: 1 });
  const hold = await api.hold(coupon.id, 'late-payer', 300, { holds: 'naive' });
  await api.confirmHold(coupon.id, String(hold.body?.holdId), { raceExpiry: true });
  await untilNoneHeld(api, coupon.id);
  const next = await api.hold(coupon.id, 'next-buyer', 60_000);
  if (next.status === 201) await api.confirmHold(coupon.id, String(next.body?.holdId));
  return (await api.audit(coupon.id)).grants;
}
