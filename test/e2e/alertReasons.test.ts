import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * The dashboard writes a failed monitor's reason from its data (alert_reason_data), its
 * times in the monitor's zone and UTC on its page (the viewer's zone in lists), and reads nothing back out of the stored words.
 */
describe.skipIf(chromiumMissing)('alert reasons from data on the dashboard', { timeout: 30_000 }, () => {
  let now = Date.parse('2026-11-21T08:00:00Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    // The viewer is in New York; the monitor runs in Paris; the API's words name Paris and UTC.
    ({ agent, page, close } = await signedInDashboard(() => now, 'America/New_York'));
  }, 60_000);
  afterAll(() => close());

  const create = async (name: string) =>
    (await agent.api('/api/monitors', { method: 'POST', json: { name, schedule: '0 10 * * *', timezone: 'Europe/Paris', duration: 5 } })).json();

  it('shows the missed run from the data, labelled with its zone, whatever the stored words say', async () => {
    const monitor = await create('Paris backup');
    now = Date.parse('2026-11-21T09:06:00Z');
    await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
    const answered = await (await agent.api(`/api/monitors/${monitor.id}`)).json();
    expect(answered.alert_reason).toBe('Missed: the run due 2026-11-21 10:00 Europe/Paris (09:00 UTC) did not come (grace 5 min); no run has come yet');
    expect(answered.alert_reason_data).toMatchObject({ kind: 'missed', expected_at: '2026-11-21T09:00:00.000000Z' });
    // Words with no time in them: only the data can tell the dashboard when the run was due.
    agent.store.db.prepare("UPDATE monitors SET alert_reason = 'words without a time' WHERE id = ?").run(monitor.id);

    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    const status = page.getByTestId('monitor-status-text');
    const shown = status.locator('time');
    await shown.waitFor();
    expect(await status.textContent()).toContain('The run due ');
    expect(await status.textContent()).toContain(' did not come (grace 5 min); no run has come yet');
    // The badge says which of the one vocabulary: missed, not a bare "failed".
    expect(await page.locator('.status-line .badge').textContent()).toBe('Missed');
    expect(await status.textContent()).not.toContain('words without a time');
    expect(await shown.getAttribute('datetime')).toBe('2026-11-21T09:00:00.000Z');
    // On the monitor's page, labelled with the monitor's zone and UTC (not the viewer's New York, unlabelled).
    expect(await shown.textContent()).toBe('Sat 21 Nov 10:00 Europe/Paris (09:00 UTC)');
    expect(await shown.getAttribute('title')).toBe('2026-11-21 09:00:00 UTC');
    await screenshot(page, 'alert-reason-from-data');

    await page.goto(`${agent.url}/#/monitors`);
    const row = page.getByRole('row').filter({ hasText: 'Paris backup' });
    await expect.poll(() => row.locator('time[datetime="2026-11-21T09:00:00.000Z"]').count()).toBeGreaterThan(0);
    expect(await row.textContent()).toContain('04:00');
  });

  it('shows an old failure without data as its stored words, as they are', async () => {
    const monitor = await create('Old failure');
    const words = 'No pulse within 5 min of the run due at 2026-11-20 10:00 Europe/Paris (09:00 UTC)';
    agent.store.db.prepare('UPDATE monitors SET is_alerted = 1, alert_reason = ?, alert_reason_data = NULL, due_at = NULL WHERE id = ?').run(words, monitor.id);

    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    const status = page.getByTestId('monitor-status-text');
    await expect.poll(() => status.textContent()).toContain(words);
    expect(await status.locator('time').count()).toBe(0);
  });
});
