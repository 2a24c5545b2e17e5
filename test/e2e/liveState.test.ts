import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * When the live stream is down the dashboard says "Reconnecting…" (it refreshes every few seconds
 * instead): in a small window too, where the top bar has no room for a plain "Live".
 */
describe.skipIf(chromiumMissing)('the live stream\'s state in a small window', { timeout: 30_000 }, () => {
  const now = Date.now();
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ page, close } = await signedInDashboard(() => now));
  }, 60_000);
  afterAll(() => close());

  it('says Reconnecting… at 800×600 while the stream is refused, and no plain Live while it is live', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.locator('.live-live').waitFor({ state: 'attached' });
    expect(await page.locator('.live-live').isVisible()).toBe(false);
    // The stream refused on its way (a proxy that will not pass it), the rest of the API answering.
    await page.route('**/api/events', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
    await page.reload();
    const reconnecting = page.locator('.live').filter({ hasText: 'Reconnecting…' });
    await reconnecting.waitFor({ state: 'attached' });
    await screenshot(page, 'live-reconnecting-800x600');
    expect(await reconnecting.isVisible()).toBe(true);
    await page.unroute('**/api/events');
  });
});
