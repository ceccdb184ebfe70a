import { ApiClient } from '@app/contract';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../tools/lab/chromium';
import { labUrl } from './lab';
import { testStack, type StackInfo } from './stack';

/** What a lab page suite's tests use, set before its first test. */
export interface LabPageSuite {
  info: StackInfo;
  api: ApiClient;
  page: Page;
}

/**
 * The lab page in headless Chromium for one describe block: opened at desktop size before its
 * tests, ready once `readySelector` is in the DOM, closed after them. Every test fails on a page
 * error, and on a console error unless `consoleErrors: false` (answers a page shows on purpose,
 * such as a 409, log one).
 */
export function labPageSuite(readySelector: string, { consoleErrors = true } = {}): LabPageSuite {
  const suite = {} as LabPageSuite;
  const errors: string[] = [];
  let browser: Browser | undefined;
  beforeAll(async () => {
    suite.info = testStack();
    suite.api = new ApiClient({ baseUrl: suite.info.nginxUrl });
    browser = await launchChromium();
    suite.page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    if (consoleErrors)
      suite.page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
    suite.page.on('pageerror', (error) => errors.push(error.message));
    await suite.page.goto(labUrl(suite.info), { waitUntil: 'load' });
    await suite.page.waitForSelector(readySelector, { state: 'attached' });
  });
  afterAll(() => browser?.close());
  afterEach(() => expect(errors).toEqual([]));
  return suite;
}
