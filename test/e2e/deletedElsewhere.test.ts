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

  it('deleted from its own page, whose answer comes after the live event: the page does not read it again', async () => {
    for (const [kind, path, label] of [
      ['monitor', 'monitors', 'Delete monitor'],
      ['server', 'servers', 'Delete server'],
    ] as const) {
      const body = kind === 'monitor' ? { name: 'to-delete', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } : { name: 'Old box', ip_address: '10.0.0.6', identifier: 'old-6' };
      const item = await (await agent.api(`/api/${path}`, { method: 'POST', json: body })).json();
      const own = `${agent.url}/api/${path}/${item.id}`;
      // A fresh page, its stream live: the live event of the creation (which rightly reads the
      // item again) was sent before it, so no read of it can land after the click below.
      await page.goto(`${agent.url}/#/${path}/${item.id}`);
      await page.reload();
      await page.locator('.live-live').waitFor({ state: 'attached' });
      await page.getByRole('button', { name: 'Delete…' }).waitFor();
      // The DELETE's answer is held until the agent's live event of it has reached the page.
      await page.route(own, async (route) => {
        if (route.request().method() !== 'DELETE') return route.continue();
        const answer = await route.fetch();
        await new Promise((resolve) => setTimeout(resolve, 500));
        await route.fulfill({ response: answer });
      });
      const readsAfter: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'GET' && request.url() === own) readsAfter.push(request.url());
      });
      await page.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('button', { name: label, exact: true }).click();
      await page.waitForURL(new RegExp(`#/${path}$`));
      await page.unroute(own);
      expect(readsAfter, kind).toEqual([]);
    }
  });
});
