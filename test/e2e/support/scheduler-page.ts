import { ApiClient } from '@app/contract';
import type { Page } from 'playwright-core';

// Drives the lab page's "Be the scheduler" panel by its DOM hooks, each action sequenced on what the page shows.

export const nextOf = (page: Page, buyer: number) =>
  page.getAttribute(`[data-testid=next-step][data-buyer="${buyer}"]`, 'data-step');

/** Starts a round of `strategy` from the panel; answers once both buyers wait at their first step. */
export async function startRound(page: Page, strategy: string, first: string): Promise<void> {
  await page.selectOption('[data-testid=sched-strategy]', strategy);
  const before = await page.getAttribute('[data-testid=sched-verdict]', 'data-coupon-id');
  await page.click('[data-testid=sched-start]');
  for (const buyer of [1, 2])
    await page.waitForSelector(`[data-testid=next-step][data-buyer="${buyer}"][data-step=${first}]`);
  // A fresh round: no verdict yet, whatever the last round said.
  if (before) await page.waitForSelector('[data-testid=sched-verdict]:not([data-coupon-id])', { state: 'attached' });
}

/** Buyer `buyer` runs its next step; answers once the page shows the step after it (`then`). */
export async function step(page: Page, buyer: number, then: string): Promise<void> {
  await page.click(`[data-testid=step-buyer][data-buyer="${buyer}"]`);
  await page.waitForSelector(`[data-testid=next-step][data-buyer="${buyer}"][data-step=${then}]`, { timeout: 30_000 });
}

export async function sharedState(page: Page) {
  const node = page.locator('[data-testid=sched-state]');
  return {
    stock: await node.getAttribute('data-stock'),
    grants: await node.getAttribute('data-grants'),
    lockOwner: await node.getAttribute('data-lock-owner'),
  };
}

/** The verdict as the page shows it, once both buyers are done, beside the coupon's audit. */
export async function verdict(page: Page, api: ApiClient) {
  const node = page.locator('[data-testid=sched-verdict][data-coupon-id]');
  await node.waitFor({ state: 'attached', timeout: 30_000 });
  const shown = {
    couponId: Number(await node.getAttribute('data-coupon-id')),
    oversold: Number(await node.getAttribute('data-oversold')),
    maxHolders: Number(await node.getAttribute('data-max-holders')),
  };
  const audit = await api.audit(shown.couponId);
  expect(shown).toEqual({ couponId: shown.couponId, oversold: audit.oversold, maxHolders: audit.maxConcurrentHolders });
  return { ...shown, text: await node.textContent() };
}

/** Buyer 1 holds and reads, its lease runs out, buyer 2 holds and reads: both wait to write. */
export async function bothHaveRead(page: Page, strategy: 'owner-checked' | 'fenced'): Promise<void> {
  await startRound(page, strategy, 'acquire');
  await step(page, 1, 'read');
  expect((await sharedState(page)).lockOwner).toBe('1');
  await step(page, 1, 'write');
  await page.click('[data-testid=expire-lease]');
  await page.waitForSelector('[data-testid=sched-state][data-lock-owner=""]', { state: 'attached' });
  await step(page, 2, 'read');
  expect((await sharedState(page)).lockOwner).toBe('2');
  await step(page, 2, 'write');
}

/** The same, then buyer 2 writes and releases; buyer 1 (the stale holder) is left to write. */
export async function pastTheLease(page: Page, strategy: 'owner-checked' | 'fenced'): Promise<void> {
  await bothHaveRead(page, strategy);
  await step(page, 2, 'release');
  expect(await sharedState(page)).toMatchObject({ stock: '0', grants: '1' });
}
