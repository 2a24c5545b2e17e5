import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * Issue 26.4: a snooze's line in the run history says its end in the viewer's zone, with UTC on
 * hover, from the line's data (paused_until); the stored words stay in UTC for other readers.
 */
describe.skipIf(chromiumMissing)('a snooze in the run history, in the viewer\'s zone', { timeout: 30_000 }, () => {
  let now = Date.parse('2026-11-23T10:00:30Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'America/New_York'));
  }, 60_000);
  afterAll(() => close());

  it('shows "Snoozed until" the end in New York time, UTC on hover; an old line without data as its words', async () => {
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
    expect(await fromData.textContent()).not.toContain('UTC');
    expect(await shown.textContent()).toContain('10:45'); // 15:45 UTC in New York
    expect(await shown.getAttribute('title')).toBe('2026-11-23 15:45:00 UTC');
    expect(await note.nth(1).textContent()).toBe('Snoozed until 2026-11-23 12:30 UTC');
    await screenshot(page, 'snooze-in-viewer-zone');
  });
});
