import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Client } from 'pg';
import { LISTENER_NAME } from '@app/stock/sold-out/reset-channel';
import { admin, createCoupon, http, testStack, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

const STOCK = 10;
/** Resets per strategy (E2E_MEMO_RESETS=20 for the full figure). */
const RESETS = Number(process.env.E2E_MEMO_RESETS ?? 3);

let run = 0;
const grab = (url: string, couponId: number, strategy: string) =>
  http<{ code?: string }>('POST', `${url}/coupons/${couponId}/grab?strategy=${strategy}`, {
    userId: `memo-${Date.now().toString(36)}-${(run += 1)}`,
  }).then(
    (r) => (r.status === 200 ? '200' : `${r.status} ${r.body?.code ?? ''}`.trim()),
    (error: Error) => `error ${error.message}`,
  );

/** Sells the coupon out, then asks every replica once more so each remembers it sold out. */
async function sellOut(info: StackInfo, couponId: number, strategy: string): Promise<void> {
  for (let answer = ''; answer !== '409 STOCK.SOLD_OUT';) answer = await grab(info.nginxUrl, couponId, strategy);
  for (const replica of info.replicas) {
    expect(await grab(replica.url, couponId, strategy)).toBe('409 STOCK.SOLD_OUT');
    // The second answer comes from the memo the first one taught.
    expect(await grab(replica.url, couponId, strategy)).toBe('409 STOCK.SOLD_OUT');
  }
}

async function reset(url: string, info: StackInfo, couponId: number): Promise<void> {
  const res = await http('POST', `${url}/coupons/${couponId}/reset`, { stock: STOCK }, admin(info));
  expect(res.status).toBe(200);
}

/** One grab on every replica at once, right after a reset answered. */
const grabEverywhere = (info: StackInfo, couponId: number, strategy: string) =>
  Promise.all(info.replicas.map((r) => grab(r.url, couponId, strategy)));

async function listenerPids(info: StackInfo): Promise<number[]> {
  const pg = new Client({ connectionString: info.databaseUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
      LISTENER_NAME,
    ]);
    return rows.map((r) => r.pid);
  } finally {
    await pg.end();
  }
}

/**
 * The backend pid of `replicaPid`'s listening session: the one listener whose client port is the
 * local port of one of that process's sockets (read from /proc) to PostgreSQL.
 */
async function listenerOf(info: StackInfo, replicaPid: number): Promise<number> {
  const pgPort = Number(new URL(info.databaseUrl).port);
  const inodes = new Set(
    readdirSync(`/proc/${replicaPid}/fd`).map((fd) => {
      try {
        return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${replicaPid}/fd/${fd}`))?.[1];
      } catch {
        return undefined; // closed meanwhile
      }
    }),
  );
  const port = (address: string) => parseInt(address.split(':').at(-1)!, 16);
  const clientPorts = ['tcp', 'tcp6']
    .flatMap((table) => readFileSync(`/proc/${replicaPid}/net/${table}`, 'utf8').trim().split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => inodes.has(cols[9]) && port(cols[2]) === pgPort)
    .map((cols) => port(cols[1]));
  const pg = new Client({ connectionString: info.databaseUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND client_port = ANY($2::int[])',
      [LISTENER_NAME, clientPorts],
    );
    if (rows.length !== 1)
      throw new Error(`expected one listening session of process ${replicaPid}, found ${rows.length}`);
    return rows[0].pid;
  } finally {
    await pg.end();
  }
}

/** Until every replica has its listening session again (a replaced one reconnects by itself). */
async function listening(info: StackInfo, stopped: readonly number[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await listenerPids(info)).filter((pid) => !stopped.includes(pid)).length < info.replicas.length) {
    if (Date.now() > deadline) throw new Error('the replicas did not listen again within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the sold-out memo never outlives a reset', () => {
  it.each(['db-atomic', 'redis-lua', 'watchdog'])(
    `%s: after each of ${RESETS} resets of a sold-out coupon, a grab on every replica is served`,
    async (strategy) => {
      const info = testStack();
      const coupon = await createCoupon(info, STOCK);
      const refused: string[] = [];
      for (let round = 1; round <= RESETS; round += 1) {
        await sellOut(info, coupon.id, strategy);
        await reset(info.nginxUrl, info, coupon.id);
        const answers = await grabEverywhere(info, coupon.id, strategy);
        answers.forEach((a, i) => a !== '200' && refused.push(`round ${round}, ${info.replicas[i].id}: ${a}`));
      }
      expect(refused).toEqual([]);
    },
  );

  it('a half-open listening session (its backend stopped) does not keep a memo past a reset', async () => {
    const info = testStack();
    await listening(info, []);
    const coupon = await createCoupon(info, STOCK);
    await sellOut(info, coupon.id, 'db-atomic');
    const stopped = await listenerPids(info);
    stopped.forEach((pid) => process.kill(pid, 'SIGSTOP'));
    try {
      await reset(info.replicas[0].url, info, coupon.id);
      expect(await grabEverywhere(info, coupon.id, 'db-atomic')).toEqual(info.replicas.map(() => '200'));
    } finally {
      // The reset terminated them: they end once they run again.
      stopped.forEach((pid) => process.kill(pid, 'SIGCONT'));
    }
    await listening(info, stopped);
  });

  it('a replica frozen through a reset, its session silent, does not answer from its memo once it runs again', async () => {
    const info = testStack();
    await listening(info, []);
    const coupon = await createCoupon(info, STOCK);
    await sellOut(info, coupon.id, 'db-atomic');
    const [resetter, , frozen] = info.replicas;
    // Its session stopped too, so nothing of the reset (notice or cut-off) reaches it before the grab:
    // only the memo's own trust, lapsed while it was frozen, can keep it from answering from memory.
    const session = await listenerOf(info, frozen.pid);
    process.kill(frozen.pid, 'SIGSTOP');
    process.kill(session, 'SIGSTOP');
    try {
      await reset(resetter.url, info, coupon.id);
      const answer = grab(frozen.url, coupon.id, 'db-atomic');
      process.kill(frozen.pid, 'SIGCONT');
      expect(await answer).toBe('200');
    } finally {
      process.kill(frozen.pid, 'SIGCONT');
      // The reset terminated it: it ends once it runs again, and the replica listens anew.
      process.kill(session, 'SIGCONT');
    }
    await listening(info, [session]);
  });
});
