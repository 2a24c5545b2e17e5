import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * A monitor a maintenance window covers is not watched (its runs may not come, and nothing says
 * so): its badge says Maintenance, never a green "Up", in the list and on its page, while one the
 * window does not cover stays Up.
 */

describe.skipIf(chromiumMissing)('a monitor under maintenance', { timeout: 60_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let browser: Browser;
  let covered = 0;
  let other = 0;

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    const create = async (name: string, tags: string[]) =>
      (await agent.api('/api/monitors', { method: 'POST', json: { name, schedule: '*/5 * * * *', timezone: 'UTC', duration: 5, tags } })).json();
    const db = await create('Database dump', ['db']);
    const web = await create('Web logs', ['web']);
    [covered, other] = [db.id, web.id];
    for (const m of [db, web]) await agent.api(`/api/pulse/${m.token}`, { method: 'POST' });
    const window = await agent.api('/api/maintenance-windows', {
      method: 'POST',
      json: { name: 'db upgrade', starts_at: new Date(now - 60_000).toISOString(), ends_at: new Date(now + 3_600_000).toISOString(), tags: ['db'] },
    });
    expect((await window.json()).active).toBe(true);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  it('says Maintenance, not Up, on the Overview, in the list and on its page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    // The Overview's counts: the covered one apart, still adding up to every monitor.
    await expect.poll(() => page.getByTestId('tile-maintenance').textContent()).toBe('1In maintenance');
    expect(await page.getByTestId('tile-up').textContent()).toBe('1Up');
    await page.goto(`${agent.url}/#/monitors`);
    const row = page.getByTestId(`monitor-row-${covered}`);
    await row.waitFor();
    await expect.poll(() => row.locator('.badge').textContent()).toBe('Maintenance');
    expect(await page.getByTestId(`monitor-row-${other}`).locator('.badge').textContent()).toBe('Up');
    await screenshot(page, 'maintenance-status-list');
    // The tile opens the list filtered as it counts; Up lists only the other one.
    await page.goto(`${agent.url}/#/`);
    await page.getByTestId('tile-maintenance').click();
    // Wait for the covered row itself: right after the click the list may not be drawn yet, and no row is not one row.
    await page.getByTestId(`monitor-row-${covered}`).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.getByTestId(`monitor-row-${other}`).count()).toBe(0);
    await page.locator('#monitor-status').selectOption('monitoring');
    await page.getByTestId(`monitor-row-${other}`).waitFor();
    expect(await page.getByTestId(`monitor-row-${covered}`).count()).toBe(0);

    await page.goto(`${agent.url}/#/monitors/${covered}`);
    await page.getByTestId('monitor-maintenance').waitFor();
    const status = page.getByRole('region', { name: 'Status' });
    expect(await status.locator('.badge').first().textContent()).toBe('Maintenance');
    expect(await page.getByTestId('monitor-status-text').textContent()).not.toContain('on time');
    await screenshot(page, 'maintenance-status-monitor');
    await context.close();
  });
});
