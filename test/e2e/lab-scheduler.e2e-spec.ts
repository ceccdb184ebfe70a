import { ApiClient, type SchedRoundView } from '@app/contract';
import type { Browser, Page } from 'playwright-core';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../tools/lab/chromium';
import { schedulerShot } from '../../tools/lab/scheduler-shot';
import { labClient, labUrl } from './support/lab';
import { bothHaveRead, nextOf, pastTheLease, sharedState, startRound, step, verdict } from './support/scheduler-page';
import { admin, createCoupon, http, testStack, type StackInfo } from './support/stack';

jest.setTimeout(120_000);

describe('be the scheduler: two buyers stepped through the real code in Chromium', () => {
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
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(labUrl(info), { waitUntil: 'load' });
    await page.waitForSelector('[data-testid=sched-strategy] option[value=none]', { state: 'attached' });
    await page.fill('[data-testid=admin-token]', info.adminToken);
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => expect(consoleErrors).toEqual([]));

  it('offers the five strategies, each with its challenge', async () => {
    const options = await page.locator('[data-testid=sched-strategy] option').all();
    const values = await Promise.all(options.map((o) => o.getAttribute('value')));
    expect(values).toEqual(['none', 'set-nx-px', 'owner-checked', 'fenced', 'db-atomic']);
    expect(await page.textContent('#sched-challenge')).toContain('Sell one coupon twice');
  });

  it('none: read, read, write, write sells the one coupon twice', async () => {
    await startRound(page, 'none', 'read');
    await step(page, 1, 'write');
    await step(page, 2, 'write');
    expect(await sharedState(page)).toMatchObject({ stock: '1', grants: '0' });
    await step(page, 1, 'done');
    expect(await sharedState(page)).toMatchObject({ stock: '0', grants: '1' });
    await step(page, 2, 'done');
    const shown = await verdict(page, api);
    expect(shown.oversold).toBe(1);
    expect(shown.text).toContain('Challenge met');
  });

  it('set-nx-px: past buyer 1’s lease, its release deletes buyer 2’s lock, and it oversells', async () => {
    await startRound(page, 'set-nx-px', 'acquire');
    await step(page, 1, 'read');
    await step(page, 1, 'write');
    await page.click('[data-testid=expire-lease]');
    await page.waitForSelector('[data-testid=sched-state][data-lock-owner=""]', { state: 'attached' });
    await step(page, 2, 'read');
    await step(page, 2, 'write');
    await step(page, 1, 'release');
    expect(await sharedState(page)).toMatchObject({ stock: '0', grants: '1', lockOwner: '2' });
    await step(page, 1, 'done');
    // GETDEL: buyer 1 deleted the lock buyer 2 holds.
    expect((await sharedState(page)).lockOwner).toBe('');
    await step(page, 2, 'release');
    await step(page, 2, 'done');
    expect((await verdict(page, api)).oversold).toBe(1);
  });

  it('owner-checked: past buyer 1’s lease, buyer 2 holds too: two holders, and oversold', async () => {
    await pastTheLease(page, 'owner-checked');
    await step(page, 1, 'release');
    await step(page, 2, 'done');
    await step(page, 1, 'done');
    const shown = await verdict(page, api);
    expect(shown.maxHolders).toBe(2);
    expect(shown.oversold).toBe(1);
  });

  it('fenced: the same schedule sells it once: the database refuses the stale write', async () => {
    await pastTheLease(page, 'fenced');
    await step(page, 1, 'done');
    expect(await page.textContent('[data-testid=next-step][data-buyer="1"]')).toContain('409');
    await step(page, 2, 'done');
    const shown = await verdict(page, api);
    expect(shown.oversold).toBe(0);
    expect(shown.text).toContain('could not be done');
  });

  it('fenced: buyer 1 writes first, after buyer 2 read: refused all the same, sold once', async () => {
    await bothHaveRead(page, 'fenced');
    // Buyer 2's read registered its newer token on the row: buyer 1's write, first, is stale.
    await step(page, 1, 'done');
    expect(await page.textContent('[data-testid=next-step][data-buyer="1"]')).toContain('409');
    expect(await sharedState(page)).toMatchObject({ stock: '1', grants: '0' });
    await step(page, 2, 'release');
    expect(await sharedState(page)).toMatchObject({ stock: '0', grants: '1' });
    await step(page, 2, 'done');
    const shown = await verdict(page, api);
    expect(shown.oversold).toBe(0);
    expect((await api.audit(shown.couponId)).grants).toBe(1);
    expect(shown.text).toContain('whether it comes first or last');
  });

  it.each([
    [1, 2],
    [2, 1],
  ])('db-atomic: buyer %i writes, then buyer %i: exact either way', async (first, second) => {
    await startRound(page, 'db-atomic', 'write');
    expect(await nextOf(page, 1)).toBe('write');
    await step(page, first, 'done');
    await step(page, second, 'done');
    const shown = await verdict(page, api);
    expect(shown.oversold).toBe(0);
    expect((await api.audit(shown.couponId)).grants).toBe(1);
  });

  it('a round left mid-step lets its held requests go, and the stack answers as usual', async () => {
    const lab = labClient(info);
    let round: SchedRoundView = await lab.schedStart('owner-checked', info.adminToken);
    round = await lab.schedStep(round.id, 1, info.adminToken);
    expect(round.buyers[0]).toMatchObject({ next: 'read', running: false });
    // Buyer 2 goes for the lock buyer 1 holds, and waits; then nobody steps either again.
    round = await lab.schedStep(round.id, 2, info.adminToken);
    expect(round.buyers[1]).toMatchObject({ next: 'acquire', running: true });
    const leftAt = Date.now();
    while (!round.audit) {
      expect(Date.now() - leftAt).toBeLessThan(30_000);
      await new Promise((r) => setTimeout(r, 200));
      round = await lab.schedRound(round.id);
    }
    expect(round.buyers.map((b) => b.next)).toEqual(['done', 'done']);
    expect(round.shared.lockTtlMs).toBe(-2);
    expect(round.audit.oversold).toBe(0);
    const coupon = await createCoupon(info, 5);
    const answer = await api.grab(coupon.id, 'after-round', { strategy: 'owner-checked' });
    expect(answer.status).toBe(200);
  });

  it('npm run lab:screenshot -- --scheduler: the panel mid-round, as a PNG', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sched-shot-')), 'scheduler.png');
    await schedulerShot(page, info.adminToken, path);
    expect(readFileSync(path).subarray(1, 4).toString()).toBe('PNG');
    expect(await nextOf(page, 2)).toBe('write');
  });

  it('refuses bad input, a missing token, and a strategy with no steps, with clear 4xx JSON', async () => {
    const lab = labClient(info);
    await expect(lab.schedStart('nope', info.adminToken)).rejects.toMatchObject({ status: 400 });
    await expect(lab.schedStart('none', '')).rejects.toMatchObject({ status: 401 });
    const coupon = await createCoupon(info, 1);
    const grab = (query: string, headers = admin(info)) =>
      http<{ code: string }>('POST', `${info.nginxUrl}/coupons/${coupon.id}/grab?${query}`, { userId: 'u1' }, headers);
    expect((await grab('strategy=none&step=a-1', {})).body.code).toBe('AUTH.UNAUTHORIZED');
    expect((await grab('strategy=none&step=bad%20id')).body.code).toBe('REQUEST.INVALID');
    expect((await grab('strategy=db-for-update&step=a-1')).body.code).toBe('REQUEST.INVALID');
    expect((await api.audit(coupon.id)).grants).toBe(0);
  });
});
