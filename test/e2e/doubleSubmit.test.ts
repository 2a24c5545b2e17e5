import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, signedInDashboard } from './browser';
import type { TestAgent } from '../helpers/testAgent';

/*
 * A double-click on a form's button (a habit, or a mouse that bounces) makes one thing, not two:
 * a second API key made unseen is a live secret nobody was shown and nobody will revoke.
 */
describe.skipIf(chromiumMissing)('a double-click sends a form once', { timeout: 60_000 }, () => {
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

  const names = async (path: string): Promise<string[]> => {
    const body = await (await agent.api(path)).json();
    return (Array.isArray(body) ? body : body.data).map((each: { name: string }) => each.name);
  };

  it('makes one API key', async () => {
    await page.goto(`${agent.url}/#/settings`);
    await page.getByLabel('Name', { exact: true }).fill('web-01');
    await page.getByRole('button', { name: 'Create key' }).dblclick();
    await page.getByText('New ping key “web-01”').waitFor();
    await page.getByRole('cell', { name: 'web-01' }).first().waitFor();
    expect((await names('/api/keys')).filter((name) => name === 'web-01')).toHaveLength(1);
  });

  it('makes one monitor', async () => {
    await page.goto(`${agent.url}/#/monitors/new`);
    await page.getByRole('textbox', { name: 'Name' }).fill('nightly');
    await page.getByRole('button', { name: 'Create monitor' }).dblclick();
    await page.getByRole('heading', { name: 'nightly', level: 1 }).waitFor();
    expect((await names('/api/monitors')).filter((name) => name === 'nightly')).toHaveLength(1);
  });

  it('makes one monitor when its max run time failed and the form is sent again', async () => {
    await page.goto(`${agent.url}/#/monitors/new`);
    await page.getByRole('textbox', { name: 'Name' }).fill('weekly');
    await page.getByRole('textbox', { name: 'Max run time (minutes)' }).fill('45');
    // The monitor is made, then its max run time (a request of its own) does not get through.
    await page.route('**/api/monitors/*/max-runtime', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('alert').filter({ hasText: 'Cannot reach the Cronbeat agent' }).first().waitFor();
    await page.unroute('**/api/monitors/*/max-runtime');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'weekly', level: 1 }).waitFor();
    const made = ((await (await agent.api('/api/monitors')).json()) as { name: string; max_runtime?: number }[]).filter((m) => m.name === 'weekly');
    expect(made).toHaveLength(1);
    expect(made[0]!.max_runtime).toBe(45);
  });
});
