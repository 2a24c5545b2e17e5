import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, signedInDashboard } from './browser';
import type { TestAgent } from '../helpers/testAgent';

/*
 * A button whose request fails says what did not happen, not only why: "Cannot reach the
 * Cronbeat agent" alone, left beside Pause once the agent was back, read as news about the agent
 * rather than "your pause was not made" (as Mark read already says "Could not mark it read: …").
 */
describe.skipIf(chromiumMissing)('a refused action says what was not done', { timeout: 60_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'Europe/Paris'));
  }, 60_000);

  afterAll(async () => {
    await close?.();
  });

  it('says the pause and the snooze were not made, and the monitor stays as it was', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'Backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } })).json();
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    await page.route('**/api/monitors/*/pause', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not pause it: Cannot reach the Cronbeat agent. Is it running?' }).waitFor();
    await page.getByRole('button', { name: 'Snooze 1 h' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not snooze it: Cannot reach the Cronbeat agent. Is it running?' }).waitFor();
    await page.unroute('**/api/monitors/*/pause');
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).status).not.toBe('paused');
  });

  it('names the certificate a check now failed for', async () => {
    await agent.api('/api/ssl-certificates', { method: 'POST', json: { hostname: '127.0.0.1', port: 9 } });
    await page.goto(`${agent.url}/#/certificates`);
    await page.route('**/api/ssl-certificates/*/check', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The disk is full.' }) }),
    );
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not check 127.0.0.1:9: The disk is full.' }).waitFor();
    await page.unroute('**/api/ssl-certificates/*/check');
  });

  it('says a form was not saved, and keeps what was typed in it', async () => {
    await page.goto(`${agent.url}/#/servers/new`);
    await page.getByLabel('Name', { exact: true }).fill('web-01');
    await page.getByLabel('Identifier', { exact: true }).fill('web-01');
    await page.getByLabel('IP address', { exact: true }).fill('10.0.0.1');
    await page.route('**/api/servers', (route) => (route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue()));
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved: Cannot reach the Cronbeat agent. Is it running?' }).waitFor();
    await page.unroute('**/api/servers');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('web-01');
  });
});
