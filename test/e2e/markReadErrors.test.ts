import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * Marking notifications read when the agent cannot write (its database refuses writes here, as a
 * full or read-only disk would): the dashboard says the agent refused, rather than leave a button
 * that seems to do nothing.
 */
describe.skipIf(chromiumMissing)('marking read when the agent cannot write', { timeout: 30_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now));
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    await fetch(`${agent.url}/api/pulse/${monitor.token}`);
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
  }, 60_000);
  afterAll(async () => {
    agent.store.db.pragma('query_only = OFF');
    await close();
  });

  it('says so next to Mark read and Mark all read, and the notification stays unread', async () => {
    await page.goto(`${agent.url}/#/notifications`);
    const markRead = page.getByTestId('toggle-read').first();
    await markRead.waitFor();
    expect(await markRead.textContent()).toBe('Mark read');
    agent.store.db.pragma('query_only = ON');

    await markRead.click();
    const refusal = page.getByTestId('notification').first().getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/^Could not mark it read: .+/);
    expect(await markRead.textContent()).toBe('Mark read');

    await page.getByRole('button', { name: 'Mark all read' }).click();
    const allRefused = page.getByTestId('mark-all-read-error');
    await allRefused.waitFor();
    expect(await allRefused.textContent()).toMatch(/^Could not mark them read: .+/);
    await screenshot(page, 'notifications-mark-read-refused');

    // Once the agent writes again, the same buttons work and the messages go.
    agent.store.db.pragma('query_only = OFF');
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => page.getByTestId('mark-all-read-error').count()).toBe(0);
    await expect.poll(() => markRead.textContent()).toBe('Mark unread');
  });
});
