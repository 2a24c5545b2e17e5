import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

// The Maintenance screen (list, add, remove) and "In maintenance until" on a covered monitor's page.
describe.skipIf(chromiumMissing)('maintenance windows in the dashboard', { timeout: 60_000 }, () => {
  const now = Date.parse('2026-11-27T13:30:00Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'Europe/Paris'));
  }, 60_000);
  afterAll(() => close());

  it('adds a window for a monitor, shows it under way on the monitor page, and removes it', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '*/10 * * * *', duration: 5 } })).json();
    await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'weekly reboot', schedule: '0 3 * * 0', timezone: 'Europe/Paris', duration: 60, tags: ['db'] } });

    await page.goto(`${agent.url}/#/maintenance`);
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('db upgrade');
    // The viewer's clock: 14:00–15:00 in Paris is 13:00–14:00 UTC, under way at 13:30 UTC.
    await page.getByLabel('From').fill('2026-11-27T14:00');
    await page.getByLabel('Until').fill('2026-11-27T15:00');
    await page.getByLabel('Monitors (none: all)').selectOption(String(monitor.id));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'db upgrade' });
    await row.waitFor();
    expect(await row.textContent()).toContain('In maintenance until');
    expect(await row.textContent()).toContain('nightly-backup');
    await page.setViewportSize({ width: 800, height: 600 });
    await screenshot(page, 'maintenance-800x600');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'maintenance-1280x800');

    const refused = page.getByLabel('Until');
    await page.getByLabel('From').fill('2026-11-27T16:00');
    await refused.fill('2026-11-27T15:00');
    // Said as you type, in the form's own words (the API's says "ends_at" and "starts_at"), and nothing is sent.
    await page.getByText('Until must be a time after From.').waitFor();
    const sent: string[] = [];
    page.on('request', (request) => void (request.method() === 'POST' && sent.push(request.url())));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('mw-ends_at');
    expect(sent).toEqual([]);

    // A failing run during the window: recorded, marked in the run history, and raising nothing.
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    await page.getByText('in maintenance', { exact: true }).waitFor();
    expect(agent.store.monitors.find(1, monitor.id)!.is_alerted).toBe(0);
    const line = page.getByTestId('monitor-maintenance');
    await line.waitFor();
    expect(await line.textContent()).toContain('In maintenance until');
    // Labelled with the monitor's zone (UTC), as every time on its page.
    expect(await line.locator('time').textContent()).toContain('14:00 UTC');
    await screenshot(page, 'monitor-in-maintenance-1280x800');

    await page.goto(`${agent.url}/#/maintenance`);
    await page.getByRole('button', { name: 'Remove window db upgrade' }).click();
    await page.getByRole('button', { name: 'Remove window', exact: true }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'db upgrade' }).count()).toBe(0);
    expect(agent.store.maintenanceWindows.list(1).map((w) => w.name)).toEqual(['weekly reboot']);
  });

  it('adds a recurring window that opens at a calendar event, and ties a period\'s refusal to its field', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(`${agent.url}/#/maintenance`);
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('sunday reboot');
    await page.getByLabel('Kind').selectOption('recurring');
    await page.getByLabel('Opens at (cron or calendar event)').fill('@every 1h');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByLabel('Minutes').fill('60');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText(/a period \(@every\) has no moment of its own to open at/).waitFor();
    await page.getByLabel('Opens at (cron or calendar event)').fill('Sun 03:00');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'sunday reboot' }).waitFor();
    await screenshot(page, 'maintenance-calendar-800x600');
    expect(agent.store.maintenanceWindows.list(1).find((w) => w.name === 'sunday reboot')).toMatchObject({ schedule: 'Sun 03:00', timezone: 'Europe/Paris' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
