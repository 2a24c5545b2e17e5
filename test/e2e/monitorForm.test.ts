import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * A monitor's form and page, in real Chromium: the form sets a max run time (its own request,
 * PUT /api/monitors/{id}/max-runtime) and tags; a zone typed as "UTC+2" is explained with the
 * zone that means it; the zones offered agree with what the field takes; and on the monitor's
 * page every time is labelled with its zone, in one format.
 */

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

describe.skipIf(chromiumMissing)('the monitor form and page', { timeout: 60_000 }, () => {
  // Friday 27 Nov 2026, 12:00 UTC: the next midnight in Berlin is Sat 28 Nov 00:00 (Fri 23:00 UTC).
  let now = Date.parse('2026-11-27T12:00:00Z');
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
    // The viewer is in New York: the page's times are the monitor's (Berlin) and UTC, labelled.
    const context = await browser.newContext({ viewport: size, timezoneId: 'America/New_York', locale: 'en-US' });
    context.setDefaultTimeout(10_000);
    // The browser's clock is the agent's: the run line's "next" is counted from it.
    await context.clock.setFixedTime(now);
    const page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    return { context, page };
  }

  for (const size of SIZES) {
    const label = `${size.width}x${size.height}`;

    it(`creates a monitor with a max run time and tags, and labels every time with its zone, at ${label}`, async () => {
      const { context, page } = await signedIn(size);
      await page.goto(`${agent.url}/#/monitors/new`);
      const form = page.getByRole('form', { name: 'New monitor' });
      await form.getByLabel('Name').fill(`Berlin export ${label}`);
      await form.getByLabel('Schedule', { exact: true }).fill('0 0 * * *');
      const zone = form.getByLabel('Time zone');

      // UTC+2 is not a zone: said with the zone that means it (sign reversed) and a city, never "UTC".
      await zone.fill('UTC+2');
      await page.getByText('UTC+2 is Etc/GMT-2 in the zone database (its sign is reversed)').first().waitFor();
      const offered = page.getByRole('group', { name: 'Suggested zones' }).or(page.getByLabel('Suggested zones'));
      expect((await offered.getByRole('button').allInnerTexts())[0]).toBe('Etc/GMT-2');
      expect(await offered.getByRole('button', { name: /^UTC$/ }).count()).toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `monitor-form-utc-offset-${label}`);

      // "india" is taken as Asia/Kolkata: the first zone offered is that one.
      await zone.fill('india');
      await page.getByText('india → Asia/Kolkata').waitFor();
      expect((await offered.getByRole('button').allInnerTexts())[0]).toMatch(/Asia\/Kolkata/);

      await zone.fill('Europe/Berlin');
      await form.getByLabel('Grace (minutes)').fill('30');
      const maxRuntime = form.getByLabel('Max run time (minutes)');
      await maxRuntime.fill('0');
      await form.getByLabel('Tags').fill('prod, export');
      await form.getByRole('button', { name: 'Create monitor' }).click();
      await page.getByText(/The max run time must be/).first().waitFor();
      await maxRuntime.fill('45');
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `monitor-form-${label}`);
      await form.getByRole('button', { name: 'Create monitor' }).click();

      await page.getByTestId('run-line').waitFor();
      const id = Number(page.url().split('/').pop());
      const saved = await (await agent.api(`/api/monitors/${id}`)).json();
      expect(saved).toMatchObject({ timezone: 'Europe/Berlin', schedule: '0 0 * * *', duration: 30, max_runtime: 45, tags: ['export', 'prod'] });

      // Every time on the page in one format, labelled with its zone.
      const runLine = (await page.getByTestId('run-line').innerText()).replace(/\s+/g, ' ');
      expect(runLine).toBe('Runs at 00:00 Europe/Berlin · next Sat 28 Nov 00:00 Europe/Berlin (Fri 27 Nov 23:00 UTC)');
      expect(await page.getByTestId('monitor-next-due').innerText()).toBe('Sat 28 Nov 00:30 Europe/Berlin (Fri 27 Nov 23:30 UTC)');
      expect(await page.getByTestId('monitor-max-runtime').innerText()).toBe('45 min');
      const status = await page.getByTestId('monitor-status-text').innerText();
      expect(status).toBe('Waiting for its first run, due Sat 28 Nov 00:00 Europe/Berlin (Fri 27 Nov 23:00 UTC).');
      for (const time of await page.locator('main section[aria-label="Status"] time').allInnerTexts()) {
        expect(time).toMatch(/ (Europe\/Berlin|UTC)( \(|$)/);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `monitor-page-${label}`);

      // Editing: the field shows the limit; emptied, the limit goes.
      await page.goto(`${agent.url}/#/monitors/${id}/edit`);
      const edit = page.getByRole('form', { name: 'Edit monitor' });
      expect(await edit.getByLabel('Max run time (minutes)').inputValue()).toBe('45');
      expect(await edit.getByLabel('Tags').inputValue()).toBe('export, prod');
      await edit.getByLabel('Max run time (minutes)').fill('');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await page.getByTestId('run-line').waitFor();
      await expect.poll(async () => (await (await agent.api(`/api/monitors/${id}`)).json()).max_runtime).toBeUndefined();
      await expect.poll(() => page.getByTestId('monitor-max-runtime').innerText()).toBe('No limit');

      await agent.api('/api/maintenance-windows', {
        method: 'POST',
        json: { name: `db upgrade ${label}`, starts_at: '2026-11-28T13:00:00.000000Z', ends_at: '2026-11-28T15:00:00.000000Z', monitor_ids: [id] },
      });
      await page.goto(`${agent.url}/#/maintenance`);
      await page.getByText(`db upgrade ${label}`).first().waitFor();
      await page.getByRole('heading', { name: /Maintenance/, level: 1 }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `maintenance-${label}`);
      await context.close();
    });
  }

  it('shows a missed run in the one vocabulary, every time labelled, at 800x600 and 1280x800', async () => {
    const monitor = await (
      await agent.api('/api/monitors', { method: 'POST', json: { name: 'Nightly backup', schedule: '0 3 * * *', timezone: 'Europe/Paris', duration: 30 } })
    ).json();
    now = Date.parse('2026-11-28T02:00:40Z');
    await agent.api(`/api/pulse/${monitor.token}`, { method: 'POST' });
    now = Date.parse('2026-11-29T02:31:00Z');
    await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
    for (const size of SIZES) {
      const { context, page } = await signedIn(size);
      await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
      const status = page.getByTestId('monitor-status-text');
      await status.locator('time').first().waitFor();
      expect(await page.locator('.status-line .badge').innerText()).toBe('Missed');
      expect(await status.innerText()).toBe(
        'The run due Sun 29 Nov 03:00 Europe/Paris (02:00 UTC) did not come (grace 30 min); last run Sat 28 Nov 03:00 Europe/Paris (02:00 UTC)',
      );
      // What it waits for, as `cronbeat monitor show` says it ("missed: waits for a success pulse"): not any pulse.
      expect(await page.getByTestId('monitor-next-due').innerText()).toBe('Waits for a success pulse');
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `monitor-missed-${size.width}x${size.height}`);
      await context.close();
    }
  });
});
