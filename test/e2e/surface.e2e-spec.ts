import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { admin, createCoupon, http, testStack } from './support/stack';

jest.setTimeout(60_000);

// The outside contract, beside the repo (CI has it there too): the API is checked against the
// names it lists, not against a copy of them nor against the code's own STRATEGY_NAMES.
const CONTRACT_DOC = resolve(__dirname, '..', '..', '..', 'shared', 'contract.md');

/**
 * The names the contract's `## Strategy names` section lists in its first sentence, then the one
 * its second says follows them once it exists (`redis-stream`), in that order.
 */
function contractStrategies(): string[] {
  const section = readFileSync(CONTRACT_DOC, 'utf8')
    .split(/^## /m)
    .find((s) => s.startsWith('Strategy names\n'));
  if (section === undefined) throw new Error(`${CONTRACT_DOC} has no "## Strategy names" section`);
  const [listed, later] = section.split(/\.\s/);
  const names = [...listed.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const follower = /Once it exists, `([^`]+)`/.exec(later ?? '')?.[1];
  return follower ? [...names, follower] : names;
}

/** The value of one Prometheus sample, e.g. `oversell_lock_acquisitions_total{strategy="watchdog"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("the rest of the contract's surface, through nginx and on one replica", () => {
  const info = testStack();

  it('lists every strategy of the contract, in teaching order, with what it fixes and what still breaks', async () => {
    const res = await http<Array<{ name: string; fixes: string; breaks: string }>>(
      'GET',
      `${info.nginxUrl}/strategies`,
    );
    expect(res.status).toBe(200);
    expect(res.body.map((s) => s.name)).toEqual(contractStrategies());
    for (const s of res.body)
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- @types/jest types asymmetric matchers as any
      expect(s).toEqual({ name: s.name, fixes: expect.stringMatching(/\w/), breaks: expect.stringMatching(/\w/) });
  });

  it("reads a coupon and its audit in the contract's shapes after a grab", async () => {
    const coupon = await createCoupon(info, 5, 2);
    const grab = await http('POST', `${info.nginxUrl}/coupons/${coupon.id}/grab?strategy=segmented`, {
      userId: 'surface-1',
    });
    expect(grab.status).toBe(200);
    expect(grab.body).toEqual(
      expect.objectContaining({
        granted: true,
        couponId: coupon.id,
        userId: 'surface-1',
        strategy: 'segmented',
        replica: grab.headers.get('x-replica'),
        remaining: 4,
      }),
    );
    const read = await http('GET', `${info.nginxUrl}/coupons/${coupon.id}`);
    expect(read.body).toEqual({ id: coupon.id, name: coupon.name, stock: 4, initialStock: 5, segments: 2, grants: 1 });
    const audit = await http('GET', `${info.nginxUrl}/coupons/${coupon.id}/audit`);
    expect(audit.body).toEqual({
      initialStock: 5,
      stock: 4,
      grants: 1,
      oversold: 0,
      lostUpdates: 0,
      maxConcurrentHolders: 1,
      statements: 1,
    });
  });

  it('counts lock metrics per strategy at /metrics on the replica that took the lock', async () => {
    const replica = info.replicas[0];
    const coupon = await createCoupon(info, 3);
    const series = 'oversell_lock_acquisitions_total{strategy="watchdog"}';
    const before = sample((await http<string>('GET', `${replica.url}/metrics`)).body, series) ?? 0;
    for (const userId of ['m-1', 'm-2']) {
      expect(
        (await http('POST', `${replica.url}/coupons/${coupon.id}/grab?strategy=watchdog`, { userId })).status,
      ).toBe(200);
    }
    const metrics = await http<string>('GET', `${replica.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(sample(metrics.body, series)).toBe(before + 2);
    expect(metrics.body).toContain('oversell_lock_wait_seconds_bucket{le=');
    expect(metrics.body).toContain('oversell_grabs_total{strategy="watchdog",outcome="granted"}');
  });

  it('serves the OpenAPI document and Swagger UI at /docs', async () => {
    const ui = await http<string>('GET', `${info.nginxUrl}/docs`);
    expect(ui.status).toBe(200);
    expect(ui.body).toMatch(/swagger/i);
    type Responses = Record<string, { description: string; content?: Record<string, { schema: { $ref?: string } }> }>;
    const doc = await http<{ paths: Record<string, Record<string, { responses: Responses }>> }>(
      'GET',
      `${info.nginxUrl}/docs/json`,
    );
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/coupons', '/coupons/{id}/grab', '/coupons/{id}/audit', '/strategies', '/health']),
    );
    // Each endpoint lists its error answers, with the error body's schema.
    const grab = doc.body.paths['/coupons/{id}/grab'].post.responses;
    expect(Object.keys(grab)).toEqual(expect.arrayContaining(['200', '400', '403', '404', '409', '429', '500', '503']));
    expect(grab['409'].description).toBe('STOCK.SOLD_OUT, GRANT.DUPLICATE, FENCE.REJECTED');
    expect(grab['429'].content?.['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBodyDto');
    expect(Object.keys(doc.body.paths['/coupons/{id}/grants/{userId}'].get.responses)).toContain('404');
  });

  it('answers an unknown route with a JSON error naming the replica, and an admin call without its token with 401', async () => {
    const lost = await http('GET', `${info.nginxUrl}/no-such-route`);
    expect(lost.status).toBe(404);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- @types/jest types asymmetric matchers as any
    expect(lost.body).toEqual({ code: 'ROUTE.NOT_FOUND', message: expect.any(String) });
    expect(lost.headers.get('x-replica')).toMatch(/^api-[123]$/);
    expect((await http('POST', `${info.nginxUrl}/coupons`, { stock: 1 })).status).toBe(401);
    expect((await http('POST', `${info.nginxUrl}/coupons`, { stock: 1 }, admin(info))).status).toBe(201);
  });
});
