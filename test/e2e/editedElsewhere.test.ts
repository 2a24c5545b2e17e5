import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, signedInDashboard } from './browser';

// An edit form open while the monitor or server changes elsewhere (another tab, the CLI): saving it sends what was changed in it, not every field as it was loaded.
describe.skipIf(chromiumMissing)('a monitor or server edited elsewhere while its form is open', { timeout: 60_000 }, () => {
  const now = Date.parse('2026-11-27T13:30:00Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'UTC'));
  }, 60_000);
  afterAll(() => close());

  const create = async () =>
    (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 2 * * *', duration: 10, tags: ['db'] } })).json();
  const openEdit = async (id: number) => {
    await page.goto(`${agent.url}/#/monitors/${id}/edit`);
    await page.getByLabel('Name').waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('nightly-backup');
  };

  it('keeps the other change when the form changed another field', async () => {
    const monitor = await create();
    await openEdit(monitor.id);
    const elsewhere = await agent.api(`/api/monitors/${monitor.id}`, { method: 'PATCH', json: { name: 'nightly-backup (prod)', tags: ['db', 'prod'] } });
    expect(elsewhere.status).toBe(200);

    await page.getByLabel('Grace (minutes)').fill('45');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`**/#/monitors/${monitor.id}`);
    const stored = agent.store.monitors.find(1, monitor.id)!;
    expect({ name: stored.name, tags: stored.tags.split(' '), duration: stored.duration }).toEqual({ name: 'nightly-backup (prod)', tags: ['db', 'prod'], duration: 45 });
  });

  it('sends no edit at all when nothing in the form changed', async () => {
    const monitor = await create();
    await openEdit(monitor.id);
    await agent.api(`/api/monitors/${monitor.id}`, { method: 'PATCH', json: { schedule: '30 3 * * *' } });
    const edits: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') edits.push(request.url());
    });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`**/#/monitors/${monitor.id}`);
    expect(edits).toEqual([]);
    expect(agent.store.monitors.find(1, monitor.id)!.schedule).toBe('30 3 * * *');
  });

  it('keeps a server\'s other change too', async () => {
    const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'Web box', ip_address: '10.0.0.5', identifier: 'web-5' } })).json();
    await page.goto(`${agent.url}/#/servers/${server.id}/edit`);
    await page.getByLabel('Name').waitFor();
    expect(await page.getByLabel('IP address').inputValue()).toBe('10.0.0.5');
    expect((await agent.api(`/api/servers/${server.id}`, { method: 'PATCH', json: { ip_address: '10.0.0.6' } })).status).toBe(200);

    await page.getByLabel('Name').fill('Web box (rack 2)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`**/#/servers/${server.id}`);
    const stored = await (await agent.api(`/api/servers/${server.id}`)).json();
    expect({ name: stored.name, ip_address: stored.ip_address }).toEqual({ name: 'Web box (rack 2)', ip_address: '10.0.0.6' });
  });
});
