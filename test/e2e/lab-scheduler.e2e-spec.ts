import type { SchedRoundView } from '@app/contract';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labPageSuite } from './support/lab-browser';
import { schedulerShot } from '../../tools/lab/scheduler-shot';
import { labClient } from './support/lab';
import { bothHaveRead, nextOf, pastTheLease, sharedState, startRound, step, verdict } from './support/scheduler-page';
import { admin, createCoupon, http } from './support/stack';

jest.setTimeout(120_000);

describe('be the scheduler: two buyers stepped through the real code in Chromium', () => {
  const ui = labPageSuite('[data-testid=sched-strategy] option[value=none]', { consoleErrors: false });

  beforeAll(() => ui.page.fill('[data-testid=admin-token]', ui.info.adminToken));

  it('offers the five strategies, each with its challenge', async () => {
    const options = await ui.page.locator('[data-testid=sched-strategy] option').all();
    const values = await Promise.all(options.map((o) => o.getAttribute('value')));
    expect(values).toEqual(['none', 'set-nx-px', 'owner-checked', 'fenced', 'db-atomic']);
    expect(await ui.page.textContent('#sched-challenge')).toContain('Sell one coupon twice');
  });

  it('none: read, read, write, write sells the one coupon twice', async () => {
    await startRound(ui.page, 'none', 'read');
    await step(ui.page, 1, 'write');
    await step(ui.page, 2, 'write');
    expect(await sharedState(ui.page)).toMatchObject({ stock: '1', grants: '0' });
    await step(ui.page, 1, 'done');
    expect(await sharedState(ui.page)).toMatchObject({ stock: '0', grants: '1' });
    await step(ui.page, 2, 'done');
    const shown = await verdict(ui.page, ui.api);
    expect(shown.oversold).toBe(1);
    expect(shown.text).toContain('Challenge met');
  });

  it('set-nx-px: past buyer 1’s lease, its release deletes buyer 2’s lock, and it oversells', async () => {
    await startRound(ui.page, 'set-nx-px', 'acquire');
    await step(ui.page, 1, 'read');
    await step(ui.page, 1, 'write');
    await ui.page.click('[data-testid=expire-lease]');
    await ui.page.waitForSelector('[data-testid=sched-state][data-lock-owner=""]', { state: 'attached' });
    await step(ui.page, 2, 'read');
    await step(ui.page, 2, 'write');
    await step(ui.page, 1, 'release');
    expect(await sharedState(ui.page)).toMatchObject({ stock: '0', grants: '1', lockOwner: '2' });
    await step(ui.page, 1, 'done');
    // GETDEL: buyer 1 deleted the lock buyer 2 holds.
    expect((await sharedState(ui.page)).lockOwner).toBe('');
    await step(ui.page, 2, 'release');
    await step(ui.page, 2, 'done');
    expect((await verdict(ui.page, ui.api)).oversold).toBe(1);
  });

  it('owner-checked: past buyer 1’s lease, buyer 2 holds too: two holders, and oversold', async () => {
    await pastTheLease(ui.page, 'owner-checked');
    await step(ui.page, 1, 'release');
    await step(ui.page, 2, 'done');
    await step(ui.page, 1, 'done');
    const shown = await verdict(ui.page, ui.api);
    expect(shown.maxHolders).toBe(2);
    expect(shown.oversold).toBe(1);
  });

  it('fenced: the same schedule sells it once: the database refuses the stale write', async () => {
    await pastTheLease(ui.page, 'fenced');
    await step(ui.page, 1, 'done');
    expect(await ui.page.textContent('[data-testid=next-step][data-buyer="1"]')).toContain('409');
    await step(ui.page, 2, 'done');
    const shown = await verdict(ui.page, ui.api);
    expect(shown.oversold).toBe(0);
    expect(shown.text).toContain('could not be done');
  });

  it('fenced: buyer 1 writes first, after buyer 2 read: refused all the same, sold once', async () => {
    await bothHaveRead(ui.page, 'fenced');
    // Buyer 2's read registered its newer token on the row: buyer 1's write, first, is stale.
    await step(ui.page, 1, 'done');
    expect(await ui.page.textContent('[data-testid=next-step][data-buyer="1"]')).toContain('409');
    expect(await sharedState(ui.page)).toMatchObject({ stock: '1', grants: '0' });
    await step(ui.page, 2, 'release');
    expect(await sharedState(ui.page)).toMatchObject({ stock: '0', grants: '1' });
    await step(ui.page, 2, 'done');
    const shown = await verdict(ui.page, ui.api);
    expect(shown.oversold).toBe(0);
    expect((await ui.api.audit(shown.couponId)).grants).toBe(1);
    expect(shown.text).toContain('whether it comes first or last');
  });

  it.each([
    [1, 2],
    [2, 1],
  ])('db-atomic: buyer %i writes, then buyer %i: exact either way', async (first, second) => {
    await startRound(ui.page, 'db-atomic', 'write');
    expect(await nextOf(ui.page, 1)).toBe('write');
    await step(ui.page, first, 'done');
    await step(ui.page, second, 'done');
    const shown = await verdict(ui.page, ui.api);
    expect(shown.oversold).toBe(0);
    expect((await ui.api.audit(shown.couponId)).grants).toBe(1);
  });

  it('a round left mid-step lets its held requests go, and the stack answers as usual', async () => {
    const lab = labClient(ui.info);
    let round: SchedRoundView = await lab.schedStart('owner-checked', ui.info.adminToken);
    round = await lab.schedStep(round.id, 1, ui.info.adminToken);
    expect(round.buyers[0]).toMatchObject({ next: 'read', running: false });
    // Buyer 2 goes for the lock buyer 1 holds, and waits; then nobody steps either again.
    round = await lab.schedStep(round.id, 2, ui.info.adminToken);
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
    const coupon = await createCoupon(ui.info, 5);
    const answer = await ui.api.grab(coupon.id, 'after-round', { strategy: 'owner-checked' });
    expect(answer.status).toBe(200);
  });

  it('npm run lab:screenshot -- --scheduler: the panel mid-round, as a PNG', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sched-shot-')), 'scheduler.png');
    await schedulerShot(ui.page, ui.info.adminToken, path);
    expect(readFileSync(path).subarray(1, 4).toString()).toBe('PNG');
    expect(await nextOf(ui.page, 2)).toBe('write');
  });

  it('refuses bad input, a missing token, and a strategy with no steps, with clear 4xx JSON', async () => {
    const lab = labClient(ui.info);
    await expect(lab.schedStart('nope', ui.info.adminToken)).rejects.toMatchObject({ status: 400 });
    await expect(lab.schedStart('none', '')).rejects.toMatchObject({ status: 401 });
    const coupon = await createCoupon(ui.info, 1);
    const grab = (query: string, headers = admin(ui.info)) =>
      http<{ code: string }>(
        'POST',
        `${ui.info.nginxUrl}/coupons/${coupon.id}/grab?${query}`,
        { userId: 'u1' },
        headers,
      );
    expect((await grab('strategy=none&step=a-1', {})).body.code).toBe('AUTH.UNAUTHORIZED');
    expect((await grab('strategy=none&step=bad%20id')).body.code).toBe('REQUEST.INVALID');
    expect((await grab('strategy=db-for-update&step=a-1')).body.code).toBe('REQUEST.INVALID');
    expect((await ui.api.audit(coupon.id)).grants).toBe(0);
  });
});
