import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * The dashboard signed in with a read-only key (a wall display, a second desktop): every screen
 * shows its data and no control whose request the key would be refused, and the page itself never
 * asks for anything that answers 403. A form opened by its address says the key is read-only.
 */

/** The names of the controls that change something: none may show for a read-only key. */
const EDIT_CONTROL =
  /^(New monitor|Edit|Pause|Resume|Snooze.*|Delete.*|New pulse token…|Save.*|Add.*|Check now|Send test|Remove.*|Mark .*|Create key|Revoke.*|Done|Forget.*)$/;

/** The visible buttons and links of the page whose names say they change something. */
async function editControls(page: Page): Promise<string[]> {
  const names = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a[href], input[type="submit"], [role="button"]')]
      .filter((element) => element.offsetParent !== null || element.getClientRects().length > 0)
      .map((element) => (element.getAttribute('aria-label') ?? element.innerText ?? '').trim()),
  );
  return names.filter((name) => EDIT_CONTROL.test(name));
}

/** Fields one could type into or tick, other than the monitors list's search and filters and the copy fields. */
async function editableFields(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('main input, main select, main textarea')]
      .filter((field) => !field.readOnly && !['monitor-search', 'monitor-status', 'monitor-tag'].includes(field.id))
      .map((field) => field.id || field.name || field.type),
  );
}

describe.skipIf(chromiumMissing)('the dashboard of a read-only key', { timeout: 60_000 }, () => {
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const refused: string[] = [];
  const writes: string[] = [];
  let monitorId = 0;
  let serverId = 0;

  beforeAll(async () => {
    agent = await startTestAgent({ rendererDir: builtRenderer() });
    const post = async (path: string, json: unknown) => (await agent.api(path, { method: 'POST', json })).json();
    const monitor = await post('/api/monitors', { name: 'Nightly backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, tags: ['db'] });
    monitorId = monitor.id;
    await post('/api/monitors', { name: 'Hourly sync', timezone: 'UTC', schedule: '0 * * * *', duration: 5 });
    // A run that went well, then one that failed: a run history, a failed monitor and its notification.
    await fetch(`${agent.url}/api/pulse/${monitor.token}`);
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    serverId = (await post('/api/servers', { name: 'Backup box', ip_address: '10.0.0.5', identifier: 'backup-01' })).id;
    // A watcher's report: its row on the server's page, whose Forget a viewer is not offered.
    await post('/api/servers/heartbeat', { server_id: 'backup-01', interval_seconds: 60, jobs: 2, watcher: 'crontab-watch' });
    agent.store.certificates.create({ companyId: 1, hostname: 'shop.example.com', port: 443, warnDays: 14, now: Date.now() });
    await post('/api/channels', { name: 'Ops hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook' } });
    // An ntfy topic is the topic's password on ntfy.sh: a viewer is not shown it.
    await post('/api/channels', { name: 'Phone', kind: 'ntfy', settings: { topic: 'ops-topic-9c1e' } });
    const inAWeek = Date.now() + 7 * 86_400_000;
    await post('/api/maintenance-windows', { name: 'db upgrade', starts_at: new Date(inAWeek).toISOString(), ends_at: new Date(inAWeek + 3_600_000).toISOString() });
    const key = await post('/api/keys', { name: 'wall display', scope: 'read-only' });
    expect(key.scope).toBe('read-only');

    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => response.status() === 403 && refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`));
    page.on('request', (request) => !['GET', 'HEAD'].includes(request.method()) && writes.push(`${request.method()} ${new URL(request.url()).pathname}`));

    await page.goto(`${agent.url}/#/sign-in`);
    await page.getByLabel('API token').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  /** Opens a screen, waits for `ready` to show, and expects nothing on it that would change anything. */
  async function visit(hash: string, ready: string) {
    await page.goto(`${agent.url}/#${hash}`);
    await page.getByText(ready, { exact: false }).first().waitFor();
    expect(await page.getByTestId('error-state').allInnerTexts(), `error states on #${hash}`).toEqual([]);
    expect.soft(await editControls(page), `edit controls on #${hash}`).toEqual([]);
    expect.soft(await editableFields(page), `editable fields on #${hash}`).toEqual([]);
  }

  it('says once, quietly, that the key only watches', async () => {
    await page.getByText('Read-only key: you can watch, not change.').waitFor();
    expect(await page.getByText('Read-only key: you can watch, not change.').count()).toBe(1);
  });

  it('shows every screen with its data and no control that would be refused', async () => {
    await visit('/', 'Latest notifications');
    await page.getByTestId('notification').first().waitFor();
    await visit('/monitors', 'Hourly sync');
    await visit(`/monitors/${monitorId}`, 'Run history');
    await page.getByTestId('pulse-token-hidden').waitFor();
    // Where its alerts go is still said, in words rather than a form.
    await page.getByTestId('channel-picker').getByText('All channels').waitFor();
    expect.soft(await editControls(page)).toEqual([]);
    await visit('/servers', 'Backup box');
    await visit(`/servers/${serverId}`, 'Reporting');
    await page.getByTestId('channel-picker').waitFor();
    expect.soft(await editControls(page)).toEqual([]);
    await visit('/certificates', 'shop.example.com');
    await screenshot(page, 'read-only-certificates');
    await visit('/notifications', 'Nightly backup');
    await visit('/channels', 'Ops hook');
    await page.getByText('https://ntfy.sh/********').waitFor();
    expect(await page.content()).not.toContain('ops-topic-9c1e');
    await visit('/maintenance', 'db upgrade');
    await visit('/settings', 'Links in alerts');
    await page.getByText('Only a full key may see or manage API keys.').waitFor();
    await screenshot(page, 'read-only-settings');
    // Signing out stays: it only forgets the key in this browser.
    await page.getByText('Signing out forgets this key in this browser').waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBeGreaterThan(0);
  });

  it("an empty company's screens offer nothing to add either", async () => {
    agent.store.companies.ensure(2, Date.now());
    const empty = agent.store.apiTokens.create({ companyId: 2, name: 'empty wall', scope: 'read-only', now: Date.now() }).token;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    await context.addInitScript((token) => localStorage.setItem('cronbeat.token', token), empty);
    const other = await context.newPage();
    other.on('response', (response) => response.status() === 403 && refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`));
    try {
      const screens = [
        ['/', 'No monitors yet'],
        ['/monitors', 'No monitors yet'],
        ['/servers', 'No servers yet'],
        ['/certificates', 'No certificates watched'],
        ['/channels', 'No channels yet'],
        ['/maintenance', 'No maintenance windows'],
      ];
      for (const [hash, ready] of screens) {
        await other.goto(`${agent.url}/#${hash}`);
        await other.getByText(ready).first().waitFor();
        expect.soft(await editControls(other), `edit controls on the empty #${hash}`).toEqual([]);
        expect.soft(await editableFields(other), `editable fields on the empty #${hash}`).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });

  it('opening a notification marks nothing read (a write the key may not make)', async () => {
    await page.goto(`${agent.url}/#/notifications`);
    await page.getByTestId('notification').first().getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Nightly backup', level: 1 }).waitFor();
  });

  it('answers a form opened by its address with a short page instead', async () => {
    for (const hash of ['/monitors/new', `/monitors/${monitorId}/edit`, '/servers/new', `/servers/${serverId}/edit`]) {
      await page.goto(`${agent.url}/#${hash}`);
      await page.getByRole('heading', { name: 'This key is read-only', level: 1 }).waitFor();
      expect(await page.locator('main form').count(), `a form on #${hash}`).toBe(0);
      if (hash === '/monitors/new') await screenshot(page, 'read-only-form-by-address');
      expect(await editControls(page)).toEqual([]);
    }
  });

  it('never asked the agent for anything it refuses', async () => {
    // A request made now reaches the test after every one the page made before it.
    await page.evaluate(() => fetch('/api/health'));
    expect(writes).toEqual([]);
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('looks right on a laptop and a small window', async () => {
    for (const [width, height] of [[1280, 800], [800, 600]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${agent.url}/#/`);
      await page.getByTestId('notification').first().waitFor();
      await screenshot(page, `read-only-overview-${width}x${height}`);
      await page.goto(`${agent.url}/#/monitors/${monitorId}`);
      await page.getByRole('heading', { name: 'Run history' }).waitFor();
      await screenshot(page, `read-only-monitor-${width}x${height}`);
    }
  });

  it('signs out by forgetting the key here, without asking the agent to revoke it (a read-only key is no session)', async () => {
    await page.goto(`${agent.url}/#/`);
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await page.evaluate(() => fetch('/api/health'));
    expect(writes).toEqual([]);
    expect(refused).toEqual([]);
  });
});
