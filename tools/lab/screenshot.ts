import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { machineInfo } from '../../bench/machine';
import { fileStamp } from '../report/format';
import { ensureStack } from '../stack/stack';
import { launchChromium } from './chromium';
import type { LabPageTiming } from './page-timing';
import { schedulerShot } from './scheduler-shot';

// `npm run lab:screenshot`: the lab page after a real `none` load, as docs/lab.png (shown in the
// README), and the page's weight and load time on this machine, saved as bench/results/lab-<time>.json
// (`npm run readme -- --lab FILE` quotes it). Uses the running stack, or starts one. With
// `-- --scheduler`, also the "Be the scheduler" panel mid-round, as docs/lab-scheduler.png.
const OUT = resolve(__dirname, '..', '..', 'docs', 'lab.png');
const SCHEDULER_OUT = resolve(__dirname, '..', '..', 'docs', 'lab-scheduler.png');
const RESULTS = resolve(__dirname, '..', '..', 'bench', 'results');

async function main(): Promise<void> {
  const stack = await ensureStack();
  const browser = await launchChromium();
  try {
    if (!stack.info.labUrl) throw new Error('the stack runs without the lab server: run `npm run build`');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(stack.info.labUrl, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid=strategy] option', { state: 'attached' });
    // From the browser's own clock: navigation start to the load event, and to the page's "lab-ready"
    // mark (its config and strategies fetched, every control built).
    const timing = await page.evaluate<{ loadMs: number; readyMs: number; bytes: number }>(
      `(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const files = [nav, ...performance.getEntriesByType('resource')].filter((e) => !e.name.includes('/api/') && !e.name.endsWith('/strategies'));
        return {
          loadMs: Math.round(nav.loadEventEnd - nav.startTime),
          readyMs: Math.round(performance.getEntriesByName('lab-ready')[0].startTime),
          bytes: files.reduce((s, e) => s + e.decodedBodySize, 0),
        };
      })()`,
    );
    const measured: LabPageTiming = {
      measuredAt: new Date().toISOString(),
      machine: machineInfo(),
      url: stack.info.labUrl,
      ...timing,
    };
    mkdirSync(RESULTS, { recursive: true });
    const json = join(RESULTS, `lab-${fileStamp(measured.measuredAt)}.json`);
    writeFileSync(json, `${JSON.stringify(measured, null, 2)}\n`);
    await page.selectOption('[data-testid=strategy]', 'none');
    await page.fill('[data-testid=stock]', '10');
    await page.fill('[data-testid=buyers]', '24');
    await page.fill('[data-testid=work-ms]', '40');
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=run-state]:is([data-state=done], [data-state=error])', {
      timeout: 60_000,
    });
    await page.locator('section').first().screenshot({ path: OUT });
    console.log(`wrote ${OUT} and ${json}`);
    if (process.argv.includes('--scheduler')) {
      await schedulerShot(page, stack.info.adminToken, SCHEDULER_OUT);
      console.log(`wrote ${SCHEDULER_OUT}`);
    }
    console.log(
      `page: ${(timing.bytes / 1024).toFixed(1)} KiB (document and files), load event after ${timing.loadMs} ms, ` +
        `ready (every control filled) after ${timing.readyMs} ms (${stack.info.labUrl}, headless Chromium, this machine)`,
    );
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
