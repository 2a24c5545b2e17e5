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

    // The monitor's page says it (once it has heard of the change), and its Edit opens with what is stored.
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    await page.locator('dl.facts').getByText('after 3 failures in a row').waitFor();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    expect(await page.getByLabel('Alert after N failures').inputValue()).toBe('3');
  });

  it('says on the monitor page why a failed monitor has sent no alert yet, and when its alerts are held for flapping', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'flaky-page', timezone: 'UTC', schedule: '*/10 * * * *', duration: 5 } })).json();
    await agent.api(`/api/monitors/${monitor.id}/alert-after`, { method: 'PUT', json: { alert_after: 3 } });
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    const hold = page.getByTestId('monitor-alert-hold');
    await hold.waitFor();
    expect(await hold.textContent()).toBe('Failed once: no alert yet, one is sent at the 3rd in a row.');
    expect(await page.getByTestId('monitor-status-text').textContent()).toContain('job reported failure');
    expect(await page.locator('dl.facts').textContent()).toContain('after 3 failures in a row');
    // Its next run is still watched: the next one missed counts too.
    expect(await page.getByTestId('monitor-next-due').textContent()).not.toContain('Waits for a success pulse');
    await screenshot(page, 'monitor-failed-not-alerted-1280x800');
    expect(agent.store.notifications.page(1, 100, 0).filter((n) => n.data.type_id === monitor.id)).toEqual([]);
  });

  it('creates a monitor with it', async () => {
    await page.goto(`${agent.url}/#/monitors/new`);
    await page.getByLabel('Name').fill('flaky-report');
    await page.getByLabel('Alert after N failures').fill('2');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await expect.poll(() => agent.store.monitors.list(1).find((m) => m.name === 'flaky-report')?.alert_after).toBe(2);
  });
});
