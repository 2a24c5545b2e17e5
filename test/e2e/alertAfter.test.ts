import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

// "Alert after N failures" in the monitor form: checked as typed with the API's words, saved by its own request.
describe.skipIf(chromiumMissing)('alert after N failures in the dashboard', { timeout: 60_000 }, () => {
  const now = Date.parse('2026-11-27T13:30:00Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'UTC'));
  }, 60_000);
  afterAll(() => close());

  it('edits it on an existing monitor, refusing 0 and 101 in the API\'s words', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'flaky-sync', timezone: 'UTC', schedule: '*/10 * * * *', duration: 5 } })).json();
    await page.goto(`${agent.url}/#/monitors/${monitor.id}/edit`);
    const field = page.getByLabel('Alert after N failures');
    await field.waitFor();
    expect(await field.inputValue()).toBe('1');
    for (const bad of ['0', '101']) {
      await field.fill(bad);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('The alert after field must be between 1 and 100.').waitFor();
    }
    expect(agent.store.monitors.find(1, monitor.id)!.alert_after).toBe(1);
    await field.fill('3');
    await page.setViewportSize({ width: 800, height: 600 });
    await screenshot(page, 'monitor-alert-after-800x600');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'monitor-alert-after-1280x800');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => agent.store.monitors.find(1, monitor.id)!.alert_after).toBe(3);

    // Opened afresh (not from the page's cache of before the save): the form starts from what is stored.
    await page.goto(`${agent.url}/#/monitors/${monitor.id}/edit`);
    await page.reload();
    await expect.poll(() => page.getByLabel('Alert after N failures').inputValue()).toBe('3');
  });

  it('creates a monitor with it', async () => {
    await page.goto(`${agent.url}/#/monitors/new`);
    await page.getByLabel('Name').fill('flaky-report');
    await page.getByLabel('Alert after N failures').fill('2');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await expect.poll(() => agent.store.monitors.list(1).find((m) => m.name === 'flaky-report')?.alert_after).toBe(2);
  });
});
