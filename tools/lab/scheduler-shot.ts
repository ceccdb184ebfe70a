import type { Page } from 'playwright-core';

/**
 * "Be the scheduler" mid-round, for `npm run lab:screenshot -- --scheduler`: a `none` round where
 * both buyers read the one unit and buyer 1 wrote, then the panel as a PNG at `path`. Each click
 * waits for the page to show the step it led to.
 */
export async function schedulerShot(page: Page, adminToken: string, path: string): Promise<void> {
  await page.fill('[data-testid=admin-token]', adminToken);
  await page.selectOption('[data-testid=sched-strategy]', 'none');
  await page.click('[data-testid=sched-start]');
  const at = (buyer: number, step: string) =>
    page.waitForSelector(`[data-testid=next-step][data-buyer="${buyer}"][data-step=${step}]`, { timeout: 30_000 });
  await at(1, 'read');
  await at(2, 'read');
  for (const [buyer, then] of [
    [1, 'write'],
    [2, 'write'],
    [1, 'done'],
  ] as const) {
    await page.click(`[data-testid=step-buyer][data-buyer="${buyer}"]`);
    await at(buyer, then);
  }
  await page.locator('[data-testid=scheduler]').screenshot({ path });
}
