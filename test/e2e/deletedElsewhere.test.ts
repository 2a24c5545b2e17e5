import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * A monitor or server deleted in another tab (or by a script) while its page is open here: the
 * live stream says so, and the page says it no longer exists instead of going on showing it with
 * buttons that can only earn a 404.
 */
describe.skipIf(chromiumMissing)('a page whose monitor or server is deleted elsewhere', { timeout: 30_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now));
  }, 60_000);
  afterAll(() => close());

  it('says the monitor does not exist any more, with a way back to the list', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await agent.api(`/api/monitors/${monitor.id}`, { method: 'DELETE' })).status).toBe(204);
    await page.getByRole('heading', { name: 'This monitor does not exist' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'All monitors' }).count()).toBe(1);
    await screenshot(page, 'monitor-deleted-elsewhere');
  });

  it('says the server does not exist any more, with a way back to the list', async () => {
    const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'Web box', ip_address: '10.0.0.5', identifier: 'web-5' } })).json();
    await page.goto(`${agent.url}/#/servers/${server.id}`);
    await page.getByRole('heading', { name: 'Web box', level: 1 }).waitFor();
    expect((await agent.api(`/api/servers/${server.id}`, { method: 'DELETE' })).status).toBe(204);
    await page.getByRole('heading', { name: 'This server does not exist' }).waitFor();
    expect(await page.getByRole('link', { name: 'All servers' }).count()).toBe(1);
  });
});
