import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, launchChromium, screenshot } from './browser';

/* Issue 23 in the dashboard: Settings lists, creates (shown once) and revokes API keys; the monitors list filters by tag. */
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
    browser = await launchChromium();
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
    expect(agent.store.apiTokens.authenticate(key)?.scope).toBe('ping');

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
    expect(agent.store.apiTokens.authenticate(key)).toBeNull();
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
});
