import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, signedInDashboard } from './browser';

/*
 * A viewer in New York looking at a window that recurs in Paris: the schedule is in Paris time,
 * its next start in the viewer's; each says whose clock it is, so 21:00 is never read as Paris's.
 */
describe.skipIf(chromiumMissing)('the zones of the maintenance list', { timeout: 30_000 }, () => {
  const now = Date.parse('2026-11-27T13:30:00Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'America/New_York'));
  }, 60_000);
  afterAll(() => close());

  it('labels each time with its zone: the schedule with its own, the rest with the viewer’s', async () => {
    await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'weekly reboot', schedule: '0 3 * * 0', timezone: 'Europe/Paris', duration: 60 } });
    await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'db upgrade', starts_at: '2026-12-01T14:00:00Z', ends_at: '2026-12-01T15:00:00Z' } });
    await page.goto(`${agent.url}/#/maintenance`);
    // The list is drawn once the windows are read: its headers are read after its rows are there.
    await page.getByRole('row').filter({ hasText: 'db upgrade' }).waitFor();
    const headers = await page.getByRole('columnheader').allTextContents();
    // No header claims a zone for a column that also holds another zone's schedule.
    expect(headers).toContain('When');
    expect(headers).toContain('Now (America/New_York)');
    const recurring = page.getByRole('row').filter({ hasText: 'weekly reboot' });
    expect(await recurring.locator('td').nth(1).textContent()).toBe('0 3 * * 0 Europe/Paris, 60 min');
    // Sunday 03:00 in Paris is Saturday 21:00 in New York.
    expect(await recurring.locator('td').nth(3).textContent()).toMatch(/^Next .*21:00$/);
    const oneOff = page.getByRole('row').filter({ hasText: 'db upgrade' });
    expect(await oneOff.locator('td').nth(1).textContent()).toMatch(/09:00 – .*10:00 America\/New_York$/);
  });

  it('finds a recurring window\'s zone from a place typed as on the monitor form: "paris" is Europe/Paris', async () => {
    await page.goto(`${agent.url}/#/maintenance`);
    const form = page.getByRole('form', { name: 'Add maintenance window' });
    await form.getByLabel('Name', { exact: true }).fill('nightly vacuum');
    await form.getByLabel('Kind', { exact: true }).selectOption('recurring');
    await form.getByLabel('Opens at (cron or calendar event)').fill('0 2 * * *');
    await form.getByLabel('Time zone', { exact: true }).fill('paris');
    await form.getByText('paris → Europe/Paris').waitFor();
    expect(await form.locator('.field-error').count()).toBe(0);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'nightly vacuum' });
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe('0 2 * * * Europe/Paris, 60 min');
  });

  it('lists every window, past the API\'s page of 100: the newest one too', async () => {
    // One-off windows stay listed once over (one per deploy adds up): 105 of them, written at once.
    for (let i = 1; i <= 105; i++) {
      const starts = now - 86_400_000 * i;
      agent.store.maintenanceWindows.create(1, { name: `deploy ${i}`, startsAt: starts, endsAt: starts + 3_600_000, schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] }, now);
    }
    await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'the newest', starts_at: '2026-12-02T14:00:00Z', ends_at: '2026-12-02T15:00:00Z' } });
    await page.goto(`${agent.url}/#/maintenance`);
    await page.getByRole('row').filter({ hasText: 'the newest' }).waitFor();
    const listed = (await (await agent.api('/api/maintenance-windows?per_page=1')).json()).total;
    expect(await page.locator('tbody tr').count()).toBe(listed);
  });
});
