import { orderKeys, stockKeys } from '@app/redis-stock';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import type { Page } from 'playwright-core';
import { labPageSuite } from './support/lab-browser';

jest.setTimeout(120_000);

/** Runs a load from the form and waits for the page to say how it ended. */
async function runLoad(
  page: Page,
  strategy: string,
  stock: number,
  buyers: number,
  workMs: number,
  submit: 'click' | 'enter',
  during?: () => Promise<void>,
) {
  await page.selectOption('[data-testid=strategy]', strategy);
  await page.fill('[data-testid=stock]', String(stock));
  await page.fill('[data-testid=buyers]', String(buyers));
  await page.fill('[data-testid=work-ms]', String(workMs));
  if (submit === 'click') await page.click('[data-testid=run]');
  else await page.press('[data-testid=work-ms]', 'Enter'); // the keyboard alone runs it
  await page.waitForSelector('[data-testid=run-state][data-state=running]', { timeout: 10_000 }).catch(() => undefined);
  await during?.();
  await page.waitForSelector('[data-testid=run-state]:is([data-state=done], [data-state=error])', { timeout: 60_000 });
  expect(await page.getAttribute('[data-testid=run-state]', 'data-state')).toBe('done');
  const verdict = page.locator('[data-testid=verdict]');
  const figure = async (name: string) => Number(await verdict.getAttribute(`data-${name}`));
  return {
    couponId: await figure('coupon-id'),
    oversold: await figure('oversold'),
    lostUpdates: await figure('lost-updates'),
    maxHolders: await figure('max-holders'),
    granted: await figure('granted'),
    stockLeft: Number(await page.textContent('[data-testid=stock-left]')),
  };
}

/** The stock chart's line for a series: how many are drawn, and the value it ends at. */
async function chartLine(page: Page, series: 'record' | 'redis') {
  const line = page.locator(`[data-testid=stock-chart] [data-series=${series}]`);
  const count = await line.count();
  return { count, last: count ? Number(await line.getAttribute('data-last')) : undefined };
}

/** Polls `probe` until it gives a value, at most 20 s. */
async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function attributes(page: Page, selector: string, name: string): Promise<Array<string | null>> {
  return Promise.all((await page.locator(selector).all()).map((node) => node.getAttribute(name)));
}

describe('the lab page in a real browser (headless Chromium)', () => {
  const ui = labPageSuite('[data-testid=strategy] option[value=none]');
  const posts: string[] = [];

  beforeAll(() => {
    ui.page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
  });

  it('lists every strategy of GET /strategies, labels every control, and weighs under 300 KB', async () => {
    const names = (await ui.api.strategies()).map((s) => s.name);
    expect(await attributes(ui.page, '[data-testid=strategy] option', 'value')).toEqual(names);
    // In the page (its own DOM types): controls that neither a label, an aria-label nor their text names.
    const unlabelled = await ui.page.evaluate<string[]>(
      `[...document.querySelectorAll('input, select, button')]
        .filter((n) => !(n.labels?.length || n.getAttribute('aria-label') || n.textContent.trim()))
        .map((n) => n.outerHTML)`,
    );
    expect(unlabelled).toEqual([]);
    expect(await ui.page.locator('[data-testid=lanes] [data-testid=lane]').count()).toBe(ui.info.replicas.length);
    // The whole page as the browser decoded it: the document and every file it loaded.
    const bytes = await ui.page.evaluate<number>(
      `[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .filter((e) => !e.name.includes('/api/') && !e.name.endsWith('/strategies'))
        .reduce((sum, e) => sum + e.decodedBodySize, 0)`,
    );
    expect(bytes).toBeGreaterThan(10 * 1024);
    expect(bytes).toBeLessThan(300 * 1024);
  });

  it('without the admin token, a fault step is refused on the page and nothing is sent', async () => {
    await ui.page.fill('[data-testid=admin-token]', '');
    await ui.page.click('[data-step=set-nx-px]');
    await ui.page.click('[data-fault=kill-replica]');
    expect(await ui.page.textContent('#step-message')).toContain('admin token');
    expect(await ui.page.textContent('#fault-message')).toContain('admin token');
    expect(posts.filter((p) => p.startsWith('/lab/api/steps') || p.startsWith('/lab/api/faults'))).toEqual([]);
  });

  it('runs none (stock 20, 60 buyers, 20 ms): the page shows the audit, and it oversold', async () => {
    const shown = await runLoad(ui.page, 'none', 20, 60, 20, 'click');
    const audit = await ui.api.audit(shown.couponId);
    expect(shown).toEqual({
      couponId: shown.couponId,
      oversold: audit.oversold,
      lostUpdates: audit.lostUpdates,
      maxHolders: audit.maxConcurrentHolders,
      granted: audit.grants,
      stockLeft: audit.stock,
    });
    expect(shown.oversold).toBeGreaterThan(0);
    expect(await ui.page.locator('[data-testid=lanes] [data-testid=section]').count()).toBe(audit.grants);
    expect(await ui.page.locator('[data-testid=section][data-overlap=true]').count()).toBeGreaterThan(0);
    expect(await ui.page.textContent('#overlaps')).toMatch(/Overlaps: \d+ stretch/);
  });

  it('runs watchdog with the keyboard: exact, one holder at a time', async () => {
    const shown = await runLoad(ui.page, 'watchdog', 20, 60, 20, 'enter');
    const audit = await ui.api.audit(shown.couponId);
    expect(shown).toMatchObject({ oversold: 0, lostUpdates: 0, maxHolders: 1, granted: 20 });
    expect(audit).toMatchObject({ oversold: 0, lostUpdates: 0, maxConcurrentHolders: 1, grants: 20, stock: 0 });
    const sections = ui.page.locator('[data-testid=lanes] [data-testid=section]');
    expect(await sections.count()).toBe(20);
    expect(await ui.page.locator('[data-testid=section][data-overlap=true]').count()).toBe(0);
    const lanes = await attributes(ui.page, '[data-testid=lanes] [data-testid=lane]', 'data-replica');
    expect(lanes).toEqual(ui.info.replicas.map((r) => r.id));
    // No Redis counter in this strategy: the stock of record alone.
    expect(await chartLine(ui.page, 'record')).toEqual({ count: 1, last: 0 });
    expect((await chartLine(ui.page, 'redis')).count).toBe(0);
  });

  it("runs redis-stream: Redis's counter and the stock of record as two lines that meet once drained", async () => {
    // Fewer buyers than stock: the lines must meet above zero, where a sold-out counter cannot hide a lag.
    const shown = await runLoad(ui.page, 'redis-stream', 50, 30, 0, 'click');
    const audit = await ui.api.audit(shown.couponId);
    expect(audit).toMatchObject({ oversold: 0, lostUpdates: 0, grants: 30, stock: 20 });
    const redis = new Redis(ui.info.redisUrl, { maxRetriesPerRequest: 1 });
    const counter = Number(await redis.get(stockKeys(shown.couponId).counter).finally(() => redis.quit()));
    const record = await chartLine(ui.page, 'record');
    const promised = await chartLine(ui.page, 'redis');
    expect(record).toEqual({ count: 1, last: audit.stock });
    // Redis's line is Redis's own counter, read by the lab's server, and meets the record once drained.
    expect(promised).toEqual({ count: 1, last: counter });
    expect(promised.last).toBe(record.last);
    expect(await ui.page.getAttribute('[data-testid=stock-gap]', 'data-gap')).toBe('0');
    expect(await ui.page.isVisible('#legend-redis')).toBe(true);
  });

  it('runs redis-stream through a Redis restart without its file: the verdict counts the accepted orders left without a grant', async () => {
    const buyers = 40;
    const pg = new Client({ connectionString: ui.info.databaseUrl });
    const redis = new Redis(ui.info.redisUrl, { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
    redis.on('error', () => undefined);
    await pg.connect();
    const { rows } = await pg.query<{ id: number }>('SELECT COALESCE(MAX(id), 0)::int AS id FROM coupons');
    const before = rows[0].id;
    await ui.page.fill('[data-testid=admin-token]', ui.info.adminToken);
    try {
      // The persisters' writes wait behind this lock, so every accepted order is in Redis alone when it restarts.
      await pg.query('BEGIN');
      await pg.query('LOCK TABLE grants IN EXCLUSIVE MODE');
      const shown = await runLoad(ui.page, 'redis-stream', buyers, buyers, 0, 'click', async () => {
        const couponId = await until(async () => {
          const found = await pg.query<{ id: number }>(
            'SELECT id FROM coupons WHERE id > $1 ORDER BY id DESC LIMIT 1',
            [before],
          );
          return found.rows[0]?.id;
        });
        await until(async () => ((await redis.xlen(orderKeys(couponId).orders)) === buyers ? true : undefined));
        await ui.page.click('[data-fault=restart-redis]');
      });
      // Every buyer was answered 202; the restart took the orders, and the verdict says how many.
      expect(await ui.page.textContent('#answers')).toContain('202');
      expect(shown.granted).toBe(0);
      const verdict = ui.page.locator('[data-testid=verdict]');
      expect(await verdict.getAttribute('data-kind')).toBe('error'); // not "Exact"
      expect(await verdict.getAttribute('data-accepted-without-grant')).toBe(String(buyers));
      expect(await verdict.textContent()).toContain(`${buyers} of ${buyers} accepted orders ended without a grant`);
    } finally {
      // The statements that waited never commit: the orders they carried were lost with Redis.
      await pg.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND wait_event_type = 'Lock'",
      );
      await pg.query('ROLLBACK');
      await pg.end();
      redis.disconnect();
    }
  });

  it('runs the set-nx-px step with the admin token: as expected, with its narration and timeline', async () => {
    await ui.page.fill('[data-testid=admin-token]', ui.info.adminToken);
    await ui.page.click('[data-step=set-nx-px]');
    const verdict = ui.page.locator('[data-testid=step-verdict][data-step=set-nx-px]');
    await verdict.waitFor({ timeout: 90_000 });
    expect(await verdict.getAttribute('data-as-expected')).toBe('true');
    expect(await ui.page.locator('#step-set-nx-px-out .story li').count()).toBeGreaterThan(0);
    expect(
      await ui.page.locator('#step-set-nx-px-out svg [data-testid=section][data-overlap=true]').count(),
    ).toBeGreaterThan(0);
    expect(await ui.page.evaluate<string>(`sessionStorage.getItem('oversell-lab.admin-token')`)).toBe(
      ui.info.adminToken,
    );
  });

  it('offers the unpaid-holds step and runs it: as expected, with its narration', async () => {
    await ui.page.click('[data-step=unpaid-holds]');
    const verdict = ui.page.locator('[data-testid=step-verdict][data-step=unpaid-holds]');
    await verdict.waitFor({ timeout: 90_000 });
    expect(await verdict.getAttribute('data-as-expected')).toBe('true');
    expect(await ui.page.locator('#step-unpaid-holds-out .story li').count()).toBeGreaterThan(0);
  });

  it('reads on a phone: nothing wider than the screen', async () => {
    for (const width of [1280, 390]) {
      await ui.page.setViewportSize({ width, height: 800 });
      // The charts redraw at the next frame after a resize: let two frames pass rather than read the old width.
      await ui.page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      expect(await ui.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    }
  });
});
