import type { Page } from 'playwright-core';
import { labPageSuite } from './support/lab-browser';

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
  const ui = labPageSuite('[data-testid=strategy] option[value=watchdog]');

  it('runs 40 buyers for 10 units through a room admitting 20 a second: the chart follows them, the verdict is the audit', async () => {
    // Off by default: the pace is not asked for, and no room is drawn.
    expect(await ui.page.isChecked('[data-testid=room-toggle]')).toBe(false);
    expect(await ui.page.isDisabled('[data-testid=room-admit-per-sec]')).toBe(true);
    expect(await ui.page.isVisible('#room-view')).toBe(false);
    await ui.page.selectOption('[data-testid=strategy]', 'watchdog');
    await ui.page.fill('[data-testid=stock]', '10');
    await ui.page.fill('[data-testid=buyers]', '40');
    await ui.page.fill('[data-testid=work-ms]', '0');
    await ui.page.check('[data-testid=room-toggle]');
    await ui.page.fill('[data-testid=room-admit-per-sec]', '20');
    await ui.page.click('[data-testid=run]');
    // Buyers in line while the room admits them: seen on the page before the run ends.
    await ui.page.waitForSelector('[data-testid=room-chart][data-waiting]:not([data-waiting="0"])', {
      timeout: 30_000,
    });
    await ui.page.waitForSelector('[data-testid=run-state]:is([data-state=done], [data-state=error])', {
      timeout: 60_000,
    });
    expect(await ui.page.getAttribute('[data-testid=run-state]', 'data-state')).toBe('done');

    const verdict = ui.page.locator('[data-testid=verdict]');
    const couponId = Number(await verdict.getAttribute('data-coupon-id'));
    const audit = await ui.api.audit(couponId);
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
    const counts = await roomCounts(ui.page);
    expect(counts).toEqual({ waiting: 0, admitted: 0, granted: audit.grants, soldOut: 40 - audit.grants });
    expect(counts.waiting + counts.admitted + counts.granted + counts.soldOut).toBe(40);
    // The chart drew the wait, the grants and the refusals as bands.
    for (const state of ['waiting', 'granted', 'sold-out'])
      expect(await ui.page.locator(`[data-testid=room-chart] [data-state=${state}]`).count()).toBe(1);
  });

  it('with the room off again, the next load has no room and draws none', async () => {
    const before = await ui.page.getAttribute('[data-testid=verdict]', 'data-coupon-id');
    await ui.page.uncheck('[data-testid=room-toggle]');
    await ui.page.fill('[data-testid=buyers]', '12');
    await ui.page.click('[data-testid=run]');
    // The state still reads the last run's "done" at first: this run's verdict names its own coupon.
    await ui.page.waitForSelector(`[data-testid=verdict][data-coupon-id]:not([data-coupon-id="${before}"])`, {
      timeout: 60_000,
    });
    await ui.page.waitForSelector('[data-testid=run-state]:is([data-state=done], [data-state=error])', {
      timeout: 60_000,
    });
    expect(await ui.page.getAttribute('[data-testid=run-state]', 'data-state')).toBe('done');
    const couponId = Number(await ui.page.getAttribute('[data-testid=verdict]', 'data-coupon-id'));
    expect((await ui.api.audit(couponId)).room).toBeUndefined();
    expect(await ui.page.isVisible('#room-view')).toBe(false);
  });
});
