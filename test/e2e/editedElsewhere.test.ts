import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, signedInDashboard } from './browser';

// An edit form open while the monitor, server or channel changes elsewhere (another tab, the CLI): saving it sends what was changed in it, not every field as it was loaded.
describe.skipIf(chromiumMissing)('a monitor, server or channel edited elsewhere while its form is open', { timeout: 60_000 }, () => {
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

  it("keeps a channel's other changes, its other settings included, and sends nothing when nothing changed", async () => {
    const channel = await (
      await agent.api('/api/channels', { method: 'POST', json: { name: 'Ops hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook', secret: 'hook-secret-1234567890' } } })
    ).json();
    const openEdit = async () => {
      await page.goto(`${agent.url}/#/channels`);
      await page.getByTestId('channel').filter({ hasText: 'Ops hook' }).getByRole('button', { name: 'Edit' }).click();
      return page.getByRole('form', { name: /^Edit Ops hook/ });
    };
    let form = await openEdit();
    const elsewhere = await agent.api(`/api/channels/${channel.id}`, { method: 'PATCH', json: { remind_every_hours: 6, settings: { mask_secrets: false } } });
    expect(elsewhere.status).toBe(200);
    await form.getByLabel('Name').fill('Ops hook (pager)');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    let stored = await (await agent.api(`/api/channels/${channel.id}`)).json();
    expect({ name: stored.name, remind: stored.remind_every_hours, mask: stored.settings.mask_secrets }).toEqual({ name: 'Ops hook (pager)', remind: 6, mask: false });

    form = await openEdit();
    await agent.api(`/api/channels/${channel.id}`, { method: 'PATCH', json: { remind_every_hours: 2 } });
    const edits: string[] = [];
    const noteEdit = (request: { method(): string; url(): string }) => {
      if (request.method() === 'PATCH') edits.push(request.url());
    };
    page.on('request', noteEdit);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    page.off('request', noteEdit);
    expect(edits).toEqual([]);
    stored = await (await agent.api(`/api/channels/${channel.id}`)).json();
    expect(stored.remind_every_hours).toBe(2);
  });
});
