import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { ApiClient, GrabAnswer } from '@app/contract';
import { closedLoop } from '../closed-loop';
import { lowerMedian } from '../metrics/figures';

/** 300 buyers for 300 units, 64 in flight, 5 ms of work, the stock rows sampled every 20 ms. */
const SELL_OUT = { buyers: 300, stock: 300, inFlight: 64, workMs: 5, sampleEveryMs: 20 };
const CONTENDERS = [
  { strategy: 'owner-checked', segments: 1 },
  { strategy: 'segmented', segments: 8 },
];

const STOCKS_SQL = 'SELECT stock FROM stock_segments WHERE coupon_id = $1 ORDER BY idx';

export type SellOutRun = Awaited<ReturnType<typeof sellOnce>>;
export type SellOutResult = Awaited<ReturnType<typeof measureSellOut>>;

/** `rounds` runs of each contender, alternating, on fresh coupons. */
export async function measureSellOut(
  api: ApiClient,
  databaseUrl: string,
  runId: string,
  rounds: number,
  say: (line: string) => void,
) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const runs: SellOutRun[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const c of CONTENDERS) {
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

/** Selling one coupon out, timed from the first request to the last 200, its stock rows sampled meanwhile. */
async function sellOnce(api: ApiClient, db: Client, strategy: string, segments: number, prefix: string) {
  const coupon = await api.createCoupon({ name: `sell-out ${strategy}`, stock: SELL_OUT.stock, segments });
  const stocks = async () => (await db.query<{ stock: number }>(STOCKS_SQL, [coupon.id])).rows.map((r) => r.stock);
  const samples: { atMs: number; stocks: number[] }[] = [];
  const started = Date.now();
  let selling = true;
  const sampler = (async () => {
    while (selling) {
      samples.push({ atMs: Date.now() - started, stocks: await stocks() });
      await sleep(SELL_OUT.sampleEveryMs);
    }
  })();
  const answers: GrabAnswer[] = [];
  await closedLoop(SELL_OUT.buyers, SELL_OUT.inFlight, async (n) => {
    answers.push(await api.grab(coupon.id, `${prefix}-${n}`, { strategy, workMs: SELL_OUT.workMs }));
  });
  selling = false;
  await sampler;
  const left = await stocks();
  samples.push({ atMs: Date.now() - started, stocks: left });
  const granted = answers.filter((a) => a.status === 200);
  return {
    strategy,
    segments,
    // The first request leaves as the sampler starts: both timed from `started`.
    sellOutMs: granted.length ? Math.max(...granted.map((a) => a.answeredAt)) - started : 0,
    granted: granted.length,
    stockLeft: left.reduce((a, b) => a + b, 0),
    samples,
  };
}

/** The median run of one strategy, by sell-out time (the lower middle when even). */
export function medianRun(result: SellOutResult, strategy: string): SellOutRun | undefined {
  return lowerMedian(result.runs.filter((r) => r.strategy === strategy).sort((a, b) => a.sellOutMs - b.sellOutMs));
}
