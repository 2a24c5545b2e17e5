import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * The public URL in real headless Chromium: without a public URL the channel form says links
 * open only on this machine; Settings sets one (a bad one is refused next to the field), and then
 * the note is gone and the monitor's copy-paste lines start with it.
 */
describe.skipIf(chromiumMissing)('the public URL in the dashboard', { timeout: 30_000 }, () => {
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    agent = await startTestAgent({ rendererDir: builtRenderer() });
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, agent.clock()));
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  it('the channel form warns that links open only here; Settings sets the public URL; the warning goes', async () => {
    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const note = page.getByRole('note').filter({ hasText: 'open only on this machine' });
    await note.waitFor();
    await screenshot(page, 'channel-form-local-links');
    // Where to set one is a link; on Settings itself, the field is the one above the note.
    await note.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await page.getByText('Set one above, or start the agent with cronbeat serve --public-url.').count()).toBe(1);
    expect(await page.getByText('Set one in Settings').count()).toBe(0);

    const field = page.locator('#public-url');
    await field.fill('https://me:pw@cron.example.com');
    await page.getByRole('form', { name: 'Public URL' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'must not carry a user name or password' }).waitFor();
    await field.fill('https://cron.example.com/');
    await page.getByRole('form', { name: 'Public URL' }).getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(() => (document.getElementById('public-url') as HTMLInputElement | null)?.value === 'https://cron.example.com');
    expect(await (await agent.api('/api/settings')).json()).toEqual({ public_url: 'https://cron.example.com', public_url_source: 'dashboard', watchdog_url: null, watchdog_url_source: null, watchdog_last_ping_at: null, watchdog_problem: null });
    await screenshot(page, 'settings-public-url');

    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('form', { name: 'Add webhook channel' }).waitFor();
    expect(await page.getByRole('note').filter({ hasText: 'open only on this machine' }).count()).toBe(0);
  });

  it('Settings takes a watchdog URL, never shows it again, and removes it', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const form = page.getByRole('form', { name: 'Watchdog URL' });
    const field = page.locator('#watchdog-url');
    await page.getByRole('status').filter({ hasText: 'No watchdog URL is set.' }).waitFor();
    await field.fill('hc-ping.com/5f1c');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'The watchdog_url field must be an absolute http:// or https:// URL' }).waitFor();
    // On loopback (a closed port): the agent may ping it while the test runs, and nothing leaves this machine.
    await field.fill('http://127.0.0.1:9/ping/5f1c2b8e-0d4a-4e7f-9a3b-1c2d3e4f5a6b');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'A watchdog URL is set (it is a secret and is not shown).' }).waitFor();
    expect(await field.inputValue()).toBe('');
    await page.getByRole('definition').filter({ hasText: 'not yet' }).waitFor(); // no ping answered so far
    expect(await page.content()).not.toContain('5f1c2b8e');
    expect(agent.store.settings.get('watchdog_url')).toBe('http://127.0.0.1:9/ping/5f1c2b8e-0d4a-4e7f-9a3b-1c2d3e4f5a6b');
    await screenshot(page, 'settings-watchdog');

    await form.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('status').filter({ hasText: 'No watchdog URL is set.' }).waitFor();
    expect(agent.store.settings.get('watchdog_url')).toBeNull();
  });

  it("another company's full key is shown the agent's own settings, without fields the agent would refuse", async () => {
    agent.store.companies.ensure(2, agent.clock());
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    const other = await context.newPage();
    const refused: string[] = [];
    other.on('response', (response) => response.status() === 403 && refused.push(new URL(response.url()).pathname));
    await other.goto(createSignInLink(agent.store, agent.url, agent.clock(), 2));
    await other.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    // The settings' answer held: until it comes, nothing is said of the address (it said "Not set").
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await other.route('**/api/settings', async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await other.goto(`${agent.url}/#/settings`);
    await other.getByText('Loading settings…').waitFor();
    expect(await other.getByTestId('public-url').count()).toBe(0);
    expect(await other.getByText('No public URL is set').count()).toBe(0);
    release();
    await other.getByText("These settings are the agent's own, shared by every company on it").waitFor();
    expect(await other.getByTestId('public-url').innerText()).toBe('https://cron.example.com');
    expect(await other.locator('#public-url, #watchdog-url').count()).toBe(0);
    // Its own keys it still manages.
    await other.getByRole('button', { name: 'Create key' }).waitFor();
    expect(refused).toEqual([]);
    await context.close();
  });
});
