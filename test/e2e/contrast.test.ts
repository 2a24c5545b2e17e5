import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * Words on a colour of their own (a status badge, a primary button, the unread count) must be
 * readable in the light and the dark scheme: WCAG AA, 4.5:1 for text of this size.
 */

/** Each visible element of `selectors` whose text is below 4.5:1 on the background under it: "what ratio". */
function lowContrast(page: Page, selectors: string): Promise<string[]> {
  return page.evaluate((selectors) => {
    const rgba = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
    const channel = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    const luminance = ([r, g, b]: number[]) => 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    const background = (el: Element | null): number[] => {
      for (; el; el = el.parentElement) {
        const colour = rgba(getComputedStyle(el).backgroundColor);
        if (colour.length === 3 || (colour[3] ?? 0) > 0) return colour;
      }
      return [255, 255, 255];
    };
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selectors)) {
      if (el.offsetParent === null || !el.textContent?.trim() || (el as HTMLButtonElement).disabled) continue;
      const [a, b] = [luminance(rgba(getComputedStyle(el).color)), luminance(background(el))].sort((x, y) => y - x);
      const ratio = (a! + 0.05) / (b! + 0.05);
      if (ratio < 4.5) found.push(`${el.className} "${el.textContent.trim().slice(0, 20)}" ${ratio.toFixed(2)}`);
    }
    return found;
  }, selectors);
}

describe.skipIf(chromiumMissing)('contrast of coloured words', { timeout: 60_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let browser: Browser;

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    const create = async (name: string) =>
      (await agent.api('/api/monitors', { method: 'POST', json: { name, schedule: '*/5 * * * *', timezone: 'UTC', duration: 5 } })).json();
    await agent.api(`/api/pulse/${(await create('Up one')).token}`, { method: 'POST' });
    await agent.api(`/api/pulse/${(await create('Failed one')).token}/1`, { method: 'POST' });
    await agent.api(`/api/pulse/${(await create('Running one')).token}/start`, { method: 'POST' });
    await agent.api(`/api/monitors/${(await create('Paused one')).id}/pause`, { method: 'POST', json: {} });
    await create('New one');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`keeps badges, primary buttons and counts readable in the ${colorScheme} scheme`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme, locale: 'en-GB', timezoneId: 'UTC' });
      const page = await context.newPage();
      await page.goto(createSignInLink(agent.store, agent.url, now));
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      const found: string[] = [];
      for (const [name, hash, ready] of [
        ['monitors', '#/monitors', 'Up one'],
        ['notifications', '#/notifications', 'Failed one failed'],
      ] as const) {
        await page.goto(`${agent.url}/${hash}`);
        await page.getByText(ready).first().waitFor();
        await page.getByTestId('unread-count').waitFor();
        await screenshot(page, `contrast-${name}-${colorScheme}`);
        for (const what of await lowContrast(page, '.badge, .status-word, .button-primary, .nav-count, .pager-active')) found.push(`${name}: ${what}`);
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
});
