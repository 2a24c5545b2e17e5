import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/* API keys and tags in the dashboard: Settings lists, creates (shown once) and revokes API keys; the monitors list filters by tag. */
describe.skipIf(chromiumMissing)('dashboard: API keys and tags', { timeout: 60_000 }, () => {
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    agent = await startTestAgent({ rendererDir: builtRenderer() });
    for (const [name, tags] of [['db dump', ['prod', 'db']], ['web logs', ['prod']], ['laptop sync', []]] as const) {
      await agent.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '0 3 * * *', duration: 5, tags } });
    }
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    await context.addInitScript((token) => localStorage.setItem('cronbeat.token', token), agent.token);
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  it('creates a ping key shown once, lists it with its last use, and revokes it', async () => {
    await page.goto(`${agent.url}/#/settings`);
    await page.getByLabel('Name', { exact: true }).fill('web-01');
    await page.getByLabel('Scope').selectOption('ping');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('textbox', { name: 'New ping key “web-01”' });
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^cb_[A-Za-z0-9_-]{43}$/);
    expect(agent.store.apiTokens.authenticate(key, Date.now())?.scope).toBe('ping');

    // The key works for pulses; its row then shows a last use.
    expect((await fetch(`${agent.url}/api/pulse/key/${key}/from-dashboard?create=1&schedule=0+3+*+*+*`)).status).toBe(201);
    await page.reload();
    const row = page.getByRole('row', { name: /web-01/ });
    await expect.poll(async () => row.innerText()).toMatch(/ping/);
    await expect.poll(async () => row.innerText()).not.toMatch(/never/);
    await expect.poll(async () => page.locator('body').innerText()).not.toContain(key); // shown once only
    await screenshot(page, 'settings-keys');

    await row.getByRole('button', { name: 'Revoke web-01' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(async () => page.getByRole('row', { name: /web-01/ }).count()).toBe(0);
    expect(agent.store.apiTokens.authenticate(key, Date.now())).toBeNull();
  });

  it('filters the monitors list by tag, kept in the address', async () => {
    await page.goto(`${agent.url}/#/monitors`);
    await page.getByLabel('Filter by tag').selectOption('db');
    await expect.poll(async () => page.locator('body').innerText()).not.toContain('web logs');
    expect(await page.locator('body').innerText()).toContain('db dump');
    expect(page.url()).toContain('tag=db');
    await page.getByLabel('Filter by tag').selectOption('prod');
    await expect.poll(async () => page.locator('body').innerText()).toContain('web logs');
    expect(await page.locator('body').innerText()).not.toContain('laptop sync');
    expect(problems).toEqual([]);
  });

  it("a line's monitor shows its settings history: the dashboard's edit, then the line winning it back", async () => {
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'p', scope: 'ping', now: Date.now() }).token;
    const line = () => fetch(`${agent.url}/api/pulse/key/${ping}/nightly-backup?create=1&schedule=0+3+*+*+*&server=web-01`);
    await line();
    const id = agent.store.monitorLines.findBySlug(1, 'nightly-backup')!.id;
    await agent.api(`/api/monitors/${id}`, { method: 'PATCH', json: { schedule: '0 4 * * *' } });
    await line();
    await page.goto(`${agent.url}/#/monitors/${id}`);
    const history = page.getByRole('region', { name: 'Settings history' });
    await history.waitFor();
    const items = await history.getByRole('listitem').allInnerTexts();
    expect(items[0]).toMatch(/its job’s line · schedule 0 4 \* \* \* → 0 3 \* \* \*/);
    expect(items[1]).toMatch(/dashboard or API · schedule 0 3 \* \* \* → 0 4 \* \* \*/);
    expect(items[2]).toMatch(/its job’s line · created the monitor “nightly-backup”: 0 3 \* \* \* UTC, grace 60 min/);
    expect(await page.locator('body').innerText()).toMatch(/Tags\s+server:web-01/);
    await screenshot(page, 'monitor-settings-history');
    expect(problems).toEqual([]);
  });
});
