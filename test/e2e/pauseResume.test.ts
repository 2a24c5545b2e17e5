import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * Pause and resume in real headless Chromium: a failed monitor paused and resumed reads "New", waiting
 * for its next run since it was resumed (never "Up"), and its run history shows the pause and the resume.
 */
describe.skipIf(chromiumMissing)('pause and resume of a failed monitor, on its page', { timeout: 30_000 }, () => {
  let now = Date.parse('2026-11-23T10:00:30Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now));
  }, 60_000);
  afterAll(() => close());

  it('shows New, the wait since the resume, and the pause and resume in the run history', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    now = Date.parse('2026-11-23T11:00:10Z');
    await fetch(`${agent.url}/api/pulse/${monitor.token}/3`);
    now = Date.parse('2026-11-23T11:10:00Z');
    await agent.api(`/api/monitors/${monitor.id}/pause`, { method: 'POST', json: {} });
    now = Date.parse('2026-11-23T11:20:00Z');
    await agent.api(`/api/monitors/${monitor.id}/resume`, { method: 'POST' });

    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    await page.getByText('Waiting for its next run since it was resumed, due ').waitFor();
    expect(await page.locator('[data-status="monitoring"]').count()).toBe(0);
    await page.locator('[data-status="resume"]').first().waitFor();
    await page.locator('[data-status="pause"]').first().waitFor();
    await page.getByText('Resumed: waiting for the next run').first().waitFor();
    await page.getByText('Paused until resumed').first().waitFor();
    await screenshot(page, 'monitor-resumed-1280');
    await page.setViewportSize({ width: 800, height: 600 });
    await screenshot(page, 'monitor-resumed-800');
  });
});
