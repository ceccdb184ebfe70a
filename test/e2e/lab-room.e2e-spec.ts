import { ApiClient } from '@app/contract';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/lab/chromium';
import { labUrl } from './support/lab';
import { testStack, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

/** The room chart's counts of the last reading, by state. */
async function roomCounts(page: Page) {
  const chart = page.locator('[data-testid=room-chart]');
  const count = async (state: string) => Number(await chart.getAttribute(`data-${state}`));
  return {
    waiting: await count('waiting'),
    admitted: await count('admitted'),
    granted: await count('granted'),
    soldOut: await count('sold-out'),
  };
}

describe('the lab page with the waiting room on (headless Chromium)', () => {
  let info: StackInfo;
  let api: ApiClient;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    info = testStack();
    api = new ApiClient({ baseUrl: info.nginxUrl });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(labUrl(info), { waitUntil: 'load' });
    await page.waitForSelector('[data-testid=strategy] option[value=watchdog]', { state: 'attached' });
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => {
    expect(consoleErrors).toEqual([]);
  });

  it('runs 40 buyers for 10 units through a room admitting 20 a second: the chart follows them, the verdict is the audit', async () => {
    // Off by default: the pace is not asked for, and no room is drawn.
    expect(await page.isChecked('[data-testid=room-toggle]')).toBe(false);
    expect(await page.isDisabled('[data-testid=room-admit-per-sec]')).toBe(true);
    expect(await page.isVisible('#room-view')).toBe(false);
    await page.selectOption('[data-testid=strategy]', 'watchdog');
    await page.fill('[data-testid=stock]', '10');
    await page.fill('[data-testid=buyers]', '40');
    await page.fill('[data-testid=work-ms]', '0');
    await page.check('[data-testid=room-toggle]');
    await page.fill('[data-testid=room-admit-per-sec]', '20');
    await page.click('[data-testid=run]');
    // Buyers in line while the room admits them: seen on the page before the run ends.
    await page.waitForSelector('[data-testid=room-chart][data-waiting]:not([data-waiting="0"])', { timeout: 30_000 });
    await page.waitForSelector('[data-testid=run-state]:is([data-state=done], [data-state=error])', {
      timeout: 60_000,
    });
    expect(await page.getAttribute('[data-testid=run-state]', 'data-state')).toBe('done');

    const verdict = page.locator('[data-testid=verdict]');
    const couponId = Number(await verdict.getAttribute('data-coupon-id'));
    const audit = await api.audit(couponId);
    // The room's own figures: every buyer joined it, and it admitted one buyer per unit, never more.
    expect(audit).toMatchObject({ oversold: 0, lostUpdates: 0, grants: 10, stock: 0 });
    expect(audit.room).toEqual({ joined: 40, admitted: 10, expired: 0 });
    expect({
      oversold: await verdict.getAttribute('data-oversold'),
      lostUpdates: await verdict.getAttribute('data-lost-updates'),
      maxHolders: await verdict.getAttribute('data-max-holders'),
      granted: await verdict.getAttribute('data-granted'),
    }).toEqual({
      oversold: String(audit.oversold),
      lostUpdates: String(audit.lostUpdates),
      maxHolders: String(audit.maxConcurrentHolders),
      granted: String(audit.grants),
    });
    expect(await verdict.getAttribute('data-kind')).toBe('info'); // exact: no unit left while buyers were turned away

    // Every buyer ended granted or sold out, and the granted ones are the audit's grants.
    const counts = await roomCounts(page);
    expect(counts).toEqual({ waiting: 0, admitted: 0, granted: audit.grants, soldOut: 40 - audit.grants });
    expect(counts.waiting + counts.admitted + counts.granted + counts.soldOut).toBe(40);
    // The chart drew the wait, the grants and the refusals as bands.
    for (const state of ['waiting', 'granted', 'sold-out'])
      expect(await page.locator(`[data-testid=room-chart] [data-state=${state}]`).count()).toBe(1);
  });

  it('with the room off again, the next load has no room and draws none', async () => {
    const before = await page.getAttribute('[data-testid=verdict]', 'data-coupon-id');
    await page.uncheck('[data-testid=room-toggle]');
    await page.fill('[data-testid=buyers]', '12');
    await page.click('[data-testid=run]');
    // The state still reads the last run's "done" at first: this run's verdict names its own coupon.
    await page.waitForSelector(`[data-testid=verdict][data-coupon-id]:not([data-coupon-id="${before}"])`, {
      timeout: 60_000,
    });
    await page.waitForSelector('[data-testid=run-state]:is([data-state=done], [data-state=error])', {
      timeout: 60_000,
    });
    expect(await page.getAttribute('[data-testid=run-state]', 'data-state')).toBe('done');
    const couponId = Number(await page.getAttribute('[data-testid=verdict]', 'data-coupon-id'));
    expect((await api.audit(couponId)).room).toBeUndefined();
    expect(await page.isVisible('#room-view')).toBe(false);
  });
});
