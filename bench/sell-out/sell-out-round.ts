import { Client } from 'pg';
import type { ApiClient, GrabAnswer } from '@app/contract';
import { closedLoop } from '../closed-loop';
import { lowerMedian, tally } from '../metrics/figures';

/** Selling one coupon out: segmented against one lock, timed from the first request to the last 200. */
export interface SellOutSample {
  /** Since the first request, ms. */
  readonly atMs: number;
  /** Each stock row's stock at that moment, by index. */
  readonly stocks: number[];
}

export interface SellOutRun {
  readonly strategy: string;
  readonly segments: number;
  /** First request sent to last 200 answered, ms. */
  readonly sellOutMs: number;
  readonly granted: number;
  /** Stock left at the end (0 when the coupon sold out). */
  readonly stockLeft: number;
  /** Answers by "status" or "status code". */
  readonly answers: Record<string, number>;
  readonly samples: SellOutSample[];
}

export interface SellOutResult {
  readonly buyers: number;
  readonly stock: number;
  readonly inFlight: number;
  readonly workMs: number;
  /** Every run, alternating between the strategies. */
  readonly runs: SellOutRun[];
}

/** 300 buyers for 300 units, 64 in flight, 5 ms of work; 8 segments against one lock. */
export const SELL_OUT = {
  buyers: 300,
  stock: 300,
  inFlight: 64,
  workMs: 5,
  sampleEveryMs: 20,
  contenders: [
    { strategy: 'owner-checked', segments: 1 },
    { strategy: 'segmented', segments: 8 },
  ],
} as const;

/** `rounds` runs of each contender, alternating, on fresh coupons. */
export async function measureSellOut(
  api: ApiClient,
  databaseUrl: string,
  runId: string,
  rounds: number,
  say: (line: string) => void,
): Promise<SellOutResult> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const runs: SellOutRun[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const c of SELL_OUT.contenders) {
        const run = await sellOnce(api, db, c.strategy, c.segments, `${runId}-so${round}-${c.strategy}`);
        say(`sell-out ${c.strategy} (${c.segments} row(s)): ${run.sellOutMs} ms, ${run.granted} granted`);
        runs.push(run);
      }
    }
  } finally {
    await db.end();
  }
  const { buyers, stock, inFlight, workMs } = SELL_OUT;
  return { buyers, stock, inFlight, workMs, runs };
}

async function sellOnce(api: ApiClient, db: Client, strategy: string, segments: number, prefix: string) {
  const coupon = await api.createCoupon({ name: `sell-out ${strategy}`, stock: SELL_OUT.stock, segments });
  const rows = async () =>
    (
      await db.query<{ stock: number }>('SELECT stock FROM stock_segments WHERE coupon_id = $1 ORDER BY idx', [
        coupon.id,
      ])
    ).rows;
  const samples: SellOutSample[] = [];
  const started = Date.now();
  let selling = true;
  const sampler = (async () => {
    while (selling) {
      const atMs = Date.now() - started;
      samples.push({ atMs, stocks: (await rows()).map((r) => r.stock) });
      await new Promise((r) => setTimeout(r, SELL_OUT.sampleEveryMs));
    }
  })();
  const answers: GrabAnswer[] = [];
  await closedLoop(SELL_OUT.buyers, SELL_OUT.inFlight, async (n) => {
    answers.push(await api.grab(coupon.id, `${prefix}-${n}`, { strategy, workMs: SELL_OUT.workMs }));
  });
  selling = false;
  await sampler;
  const left = (await rows()).map((r) => r.stock);
  samples.push({ atMs: Date.now() - started, stocks: left });
  const first = Math.min(...answers.map((a) => a.sentAt));
  const granted = answers.filter((a) => a.status === 200);
  return {
    strategy,
    segments,
    sellOutMs: granted.length ? Math.max(...granted.map((a) => a.answeredAt)) - first : 0,
    granted: granted.length,
    stockLeft: left.reduce((a, b) => a + b, 0),
    answers: tally(answers.map((a) => (a.status === 200 ? '200' : `${a.status} ${a.code ?? ''}`.trim()))),
    // Times from the first request, as the sell-out time is.
    samples: samples.map((s) => ({ ...s, atMs: Math.max(0, s.atMs - (first - started)) })),
  };
}

/** The median run of one strategy, by sell-out time (the lower middle when even). */
export function medianRun(result: SellOutResult, strategy: string): SellOutRun | undefined {
  return lowerMedian(result.runs.filter((r) => r.strategy === strategy).sort((a, b) => a.sellOutMs - b.sellOutMs));
}
