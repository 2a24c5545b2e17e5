import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * Zones and email addresses in real headless Chromium, at 800×600 and 1280×800: zones found by
 * country and city, an abbreviation refused with the zone it may mean (the API's rule); an
 * email channel with me@localhost and "Ops <ops@example.com>", one field labelled From, and
 * quiet hours typed as 8:00.
 */
describe.skipIf(chromiumMissing)('zones and the email channel form', { timeout: 30_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let browser: Browser;

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  async function signedIn(size: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: size, timezoneId: 'Europe/Paris', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    return { context, page };
  }

  for (const size of [
    { width: 800, height: 600 },
    { width: 1280, height: 800 },
  ]) {
    const label = `${size.width}x${size.height}`;

    it(`finds a zone by country, refuses an abbreviation with the zone it may mean, at ${label}`, async () => {
      const { context, page } = await signedIn(size);
      await page.goto(`${agent.url}/#/monitors/new`);
      const zone = page.getByLabel('Time zone');
      await zone.fill('EST');
      await page.getByText('"EST" is an abbreviation, not a time zone').first().waitFor();
      await page.getByRole('button', { name: /America\/New_York/ }).first().waitFor();
      await screenshot(page, `zone-est-${label}`);
      await zone.fill('india');
      await page.getByText('india → Asia/Kolkata').waitFor();
      await page.getByLabel('Name').fill(`Indian job ${label}`);
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.getByTestId('run-line').waitFor();
      const id = Number(page.url().split('/').pop());
      expect((await (await agent.api(`/api/monitors/${id}`)).json()).timezone).toBe('Asia/Kolkata');
      await context.close();
    });

    it(`adds an email channel to me@localhost from "Ops <ops@example.com>", quiet from 8:00, at ${label}`, async () => {
      const { context, page } = await signedIn(size);
      await page.goto(`${agent.url}/#/channels`);
      await page.getByRole('button', { name: 'Add channel' }).first().click();
      await page.getByLabel('Kind').selectOption('email');
      const form = page.getByRole('form', { name: 'Add email channel' });
      expect(await form.getByText('From', { exact: true }).count()).toBe(1);
      await form.getByLabel('Name', { exact: true }).fill(`Local mail ${label}`);
      await form.getByLabel('SMTP host').fill('localhost');
      await form.getByLabel('From', { exact: true }).fill('Ops <ops@example.com>');
      await form.getByLabel('To', { exact: true }).fill('me@localhost');
      await form.getByLabel('Quiet from').fill('8:00');
      await form.getByLabel('Quiet until').fill('9:30');
      // A place, as on the monitor form: the hint says the zone it is.
      await form.getByLabel('Time zone').fill('paris');
      await form.getByText('paris → Europe/Paris').waitFor();
      expect(await form.locator('.field-error').allInnerTexts()).toEqual([]);
      await screenshot(page, `email-channel-${label}`);
      await form.getByRole('button', { name: 'Add channel' }).click();
      await page.getByTestId('channel').filter({ hasText: `Local mail ${label}` }).waitFor();
      const channels = (await (await agent.api('/api/channels')).json()) as Array<{ name: string; settings: Record<string, unknown>; quiet_hours: unknown }>;
      const saved = channels.find((c) => c.name === `Local mail ${label}`)!;
      expect(saved.settings).toMatchObject({ from: 'Ops <ops@example.com>', to: 'me@localhost' });
      expect(saved.quiet_hours).toEqual({ start: '08:00', end: '09:30', timezone: 'Europe/Paris' });
      await context.close();
    });
  }
});
