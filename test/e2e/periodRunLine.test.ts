import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, signedInDashboard } from './browser';

/*
 * A period (@every 90m) is counted from the last run, not from the moment the page is looked
 * at: the run line of a monitor whose last pulse came an hour ago names the run 30 minutes
 * ahead (the agent's own deadline less the grace), and does not creep forward while it is open.
 */
describe.skipIf(chromiumMissing)('the next run of a period, on its monitor\'s page', { timeout: 30_000 }, () => {
  // The agent's clock stands an hour behind the browser's: the pulse came an hour before the viewer looks.
  let now = Date.now() - 60 * 60_000;
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'UTC'));
  }, 60_000);
  afterAll(() => close());

  const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

  it('counts from the last pulse', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'heartbeat', timezone: 'UTC', schedule: '@every 90m', duration: 10 } })).json();
    now += 60_000;
    const pulseAt = now;
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}`, { method: 'POST' })).status).toBe(200);
    const shown = await (await agent.api(`/api/monitors/${monitor.id}`)).json();
    // The agent's deadline: the pulse, the period and the grace (timestamps keep microseconds, so within a second).
    expect(Math.abs(Date.parse(shown.next_due_at) - (pulseAt + 100 * 60_000))).toBeLessThan(1_000);
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    const line = page.getByTestId('run-line');
    await line.waitFor();
    const text = (await line.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('every 90 minutes, counted from the last run');
    expect(text).toContain(`· next `);
    expect(text).toContain(`${hhmm(pulseAt + 90 * 60_000)} UTC`);

    // Its Edit form previews the same runs while the schedule stays (a new name, zone or grace keeps
    // the count), and counts from the edit once the schedule changes (the agent then does).
    await page.goto(`${agent.url}/#/monitors/${monitor.id}/edit`);
    const preview = page.getByTestId('next-runs');
    await preview.waitFor();
    await expect.poll(async () => (await preview.locator('li').first().innerText()).trim()).toContain(`${hhmm(pulseAt + 90 * 60_000)} UTC`);
    await page.getByRole('textbox', { name: 'Name' }).fill('heartbeat of the queue');
    expect(await preview.locator('li').first().innerText()).toContain(`${hhmm(pulseAt + 90 * 60_000)} UTC`);
    expect(await preview.locator('li').nth(1).innerText()).toContain(`${hhmm(pulseAt + 180 * 60_000)} UTC`);
    await page.getByRole('textbox', { name: 'Grace (minutes)' }).fill('20');
    expect(await preview.locator('li').first().innerText()).toContain(`${hhmm(pulseAt + 90 * 60_000)} UTC`);
    const before = Date.now();
    await page.getByLabel('Schedule', { exact: true }).fill('@every 1h30m');
    const first = await preview.locator('li').first().innerText();
    // Counted from now: the minute may turn between the two clocks' readings.
    expect([before, Date.now()].map((at) => `${hhmm(at + 90 * 60_000)} UTC`).some((words) => first.includes(words)), first).toBe(true);
  });
});
