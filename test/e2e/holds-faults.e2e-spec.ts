import { ApiClient, type CallAnswer, type Hold } from '@app/contract';
import { holdOutcomes, untilNoneHeld } from '../../tools/holds/hold-races';
import { control, createCoupon, testStack, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const client = (info: StackInfo) => new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });

async function openMany(api: ApiClient, couponId: number, prefix: string, count: number, holdMs: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const answer = await api.hold(couponId, `${prefix}-${i}`, holdMs);
      if (answer.status !== 201) throw new Error(`hold answered ${answer.status} ${answer.code}`);
      return answer.body as unknown as Hold;
    }),
  );
}

/** Every unit accounted for, no hold with two outcomes or returned twice, and each buyer's lookup agreeing with the database. */
async function expectExact(info: StackInfo, couponId: number, holds: readonly Hold[]) {
  const api = client(info);
  const audit = await untilNoneHeld(api, couponId, 30_000);
  const outcomes = await holdOutcomes(info.databaseUrl, couponId);
  const lookups = await Promise.all(
    holds.map(
      async (h) =>
        (await api.grant(couponId, h.userId).then(
          () => true,
          () => false,
        )) === outcomes.granted.has(h.holdId),
    ),
  );
  expect({
    held: audit.held,
    exact: audit.initialStock === audit.stock + (audit.held ?? 0) + (audit.confirmed ?? 0),
    twoOutcomes: outcomes.twoOutcomes,
    returnedTwice: outcomes.returnedTwice,
    lookupsAgainstDatabase: lookups.filter((agrees) => !agrees).length,
  }).toEqual({ held: 0, exact: true, twoOutcomes: 0, returnedTwice: 0, lookupsAgainstDatabase: 0 });
  return audit;
}

describe('holds under faults', () => {
  it('a replica killed mid-confirm: each hold is confirmed or expires, never both, and its buyer can learn which', async () => {
    const info = testStack();
    const [victim, other] = info.replicas;
    const api = client(info);
    const coupon = await createCoupon(info, 40);
    const holds = await openMany(api.at(other.url), coupon.id, 'killed', 40, 2000);
    // Half the confirms stall until the expiry (raceExpiry): the kill finds them inside the confirm.
    const confirms: Promise<CallAnswer>[] = holds.map((h, i) =>
      api.at(victim.url).confirmHold(coupon.id, h.holdId, { raceExpiry: i % 2 === 0 }),
    );
    await control(info, `/replicas/${victim.id}/kill`);
    const answers = await Promise.all(confirms);
    const dropped = answers.filter((a) => a.status === 0).length;
    expect(dropped).toBeGreaterThan(0); // the stalled confirms died with the replica
    const audit = await expectExact(info, coupon.id, holds);
    expect(audit.confirmed! + audit.expired!).toBe(40);
    // Every 200 answered is a grant in the database.
    const granted = await holdOutcomes(info.databaseUrl, coupon.id);
    expect(holds.filter((h, i) => answers[i].status === 200 && !granted.granted.has(h.holdId))).toEqual([]);
  });

  it('PostgreSQL restarted while holds expire: the sweepers catch up and every unit comes back once', async () => {
    const info = testStack();
    const api = client(info);
    const coupon = await createCoupon(info, 30);
    const holds = await openMany(api, coupon.id, 'pg-restart', 30, 800);
    const firstDeadline = Math.min(...holds.map((h) => Date.parse(h.expiresAt)));
    await sleep(firstDeadline - 100 - Date.now());
    await control(info, '/postgres/stop');
    await sleep(1500); // past every deadline, with no database to sweep in
    await control(info, '/postgres/start');
    const audit = await expectExact(info, coupon.id, holds);
    expect(audit).toMatchObject({ stock: 30, expired: 30, confirmed: 0, grants: 0 });
  });
});
