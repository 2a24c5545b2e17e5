import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * A snooze's line in the run history says its end from the line's data (paused_until),
 * labelled with its zone as every time on a monitor's page (the monitor's zone and UTC), the
 * viewer's own clock on hover; the stored words stay in UTC for other readers.
 */
describe.skipIf(chromiumMissing)('a snooze in the run history, labelled with its zone', { timeout: 30_000 }, () => {
  let now = Date.parse('2026-11-23T10:00:30Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'America/New_York'));
  }, 60_000);
  afterAll(() => close());

  it('shows "Snoozed until" the end labelled with the monitor\'s zone, New York time on hover; an old line without data as its words', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    await agent.api(`/api/monitors/${monitor.id}/pause`, { method: 'POST', json: { until: '2026-11-23T12:30:00Z' } });
    now = Date.parse('2026-11-23T10:05:00Z');
    await agent.api(`/api/monitors/${monitor.id}/resume`, { method: 'POST' });
    now = Date.parse('2026-11-23T10:06:00Z');
    await agent.api(`/api/monitors/${monitor.id}/pause`, { method: 'POST', json: { until: '2026-11-23T15:45:00Z' } });
    // A snooze noted before its end was data: only its words remain.
    agent.store.db.prepare("UPDATE pulses SET paused_until = NULL WHERE monitor_id = ? AND body = 'Snoozed until 2026-11-23 12:30 UTC'").run(monitor.id);

    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    const note = page.locator('.history-note').filter({ hasText: /^Snoozed until / });
    await expect.poll(() => note.count()).toBe(2);
    const fromData = note.first();
    const shown = fromData.locator('time');
    await shown.waitFor();
    expect(await shown.textContent()).toBe('Mon 23 Nov 15:45 UTC'); // the monitor's zone is UTC
    expect(await shown.getAttribute('title')).toMatch(/10:45 in your time zone$/); // 15:45 UTC in New York
    expect(await note.nth(1).textContent()).toBe('Snoozed until 2026-11-23 12:30 UTC');
    await screenshot(page, 'snooze-in-viewer-zone');
  });
});
