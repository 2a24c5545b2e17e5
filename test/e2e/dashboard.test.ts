import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, CHROMIUM, sharedChromium, screenshot } from './browser';

/** Fails when the page shows an error state the test did not expect. */
export async function expectNoErrorState(page: Page): Promise<void> {
  const errors = await page.locator('[data-testid="error-state"]').allInnerTexts();
  expect(errors, 'error states on the page').toEqual([]);
}

/**
 * Collects console errors, failed requests and Content-Security-Policy violations of the page, for
 * assertions at the end. A violation a library caught (a probe for eval) is reported to the page
 * but logged nowhere, so the page is asked to log each one.
 */
export async function watchPageProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.effectiveDirective} ${event.blockedURI}`)),
  );
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** A port nothing listens on (a certificate check there is refused at once). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

if (chromiumMissing) console.warn(`Skipping the dashboard's end-to-end tests: ${CHROMIUM} is not installed (apt-get install chromium).`);

/*
 * The dashboard in real headless Chromium against a real agent whose clock the test moves, so a
 * monitor fails on the engine's own step without any sleeping.
 */
describe.skipIf(chromiumMissing)('dashboard end to end', { timeout: 30_000 }, () => {
  let now = Date.now();
  let agent: TestAgent;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'Europe/Paris', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    problems = await watchPageProblems(page);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  const step = () => stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
  const heading = () => page.getByRole('heading', { level: 1 });

  it('signs in with the one-time link printed by `cronbeat serve`, which then stops working', async () => {
    const link = createSignInLink(agent.store, agent.url, now);
    await page.goto(link);
    await expect.poll(() => heading().textContent()).toBe('Overview');
    // The code left the address bar, and the session survives a reload.
    expect(page.url()).not.toContain('code=');
    await page.reload();
    await expect.poll(() => heading().textContent()).toBe('Overview');
    await page.getByRole('heading', { name: 'Latest notifications' }).waitFor();
    await expectNoErrorState(page);
    await screenshot(page, 'overview-empty');

    const other = await context.browser()!.newContext();
    const second = await other.newPage();
    await second.goto(link);
    // Used by someone else first (the link was stolen), it says when and which key to revoke.
    await second.getByText(/This sign-in code was already used, at .* UTC, for the key "dashboard" \(id \d+\)\. If that was not you, revoke that key/).waitFor();
    await screenshot(second, 'sign-in-used-link');
    await other.close();

    // Opened again where it signed in (from the terminal's scrollback), it says this browser is signed in already.
    await page.goto(link);
    await page.getByText('This sign-in code was already used').waitFor();
    await page.getByText('This browser is still signed in.').waitFor();
    await page.getByRole('link', { name: 'Open the dashboard' }).click();
    await expect.poll(() => heading().textContent()).toBe('Overview');
  });

  it('creates a server and shows its details', async () => {
    await page.getByRole('link', { name: 'Servers', exact: true }).first().click();
    await page.getByText('No servers yet').waitFor();
    await page.getByRole('link', { name: 'Add server' }).first().click();
    await page.getByLabel('Name').fill('Backup box');
    await page.getByLabel('Identifier').fill('has space');
    await page.getByLabel('IP address').fill('192.168.1.20');
    await page.getByText('The identifier field may only contain letters, digits, dots, dashes and underscores.').waitFor();
    await page.getByLabel('Identifier').fill('backup-01');
    await page.getByRole('button', { name: 'Add server' }).click();
    await expect.poll(() => heading().textContent()).toBe('Backup box');
    await page.getByText('No alerts received').waitFor();
    await expectNoErrorState(page);
    await screenshot(page, 'server-detail');
  });

  let monitorId = 0;

  it('creates a monitor with a form that validates as you type and previews the next runs', async () => {
    await page.goto(`${agent.url}/#/monitors/new`);
    await page.getByLabel('Name').fill('Nightly backup');
    await page.getByLabel('Schedule', { exact: true }).fill('* * * *');
    await page.getByText('A schedule has five fields').first().waitFor();
    await page.getByLabel('Schedule', { exact: true }).fill('0 2 * * *');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByText('At 02:00 Europe/Paris.').waitFor();
    expect(await page.locator('.next-runs li').count()).toBe(5);
    await screenshot(page, 'monitor-new');

    // The same field takes a systemd timer's calendar events, one a line, and a period.
    await page.getByLabel('Schedule', { exact: true }).fill('Mon..Fri 09:00\nSat 02:30');
    await page.getByText('At 09:00 Europe/Paris, Monday through Friday; at 02:30 Europe/Paris, on Saturday.').waitFor();
    expect(await page.locator('.next-runs li').count()).toBe(5);
    await page.getByLabel('Schedule', { exact: true }).fill('Mon..Fri 25:00');
    await page.getByText('The hour is 25, but hours go from 0 to 23.').first().waitFor();
    await page.getByLabel('Schedule', { exact: true }).fill('@every 90m');
    await page.getByText('Every 90 minutes, counted from the last run.').waitFor();

    // A monitor due every minute with one minute of grace, to fail it below.
    await page.getByLabel('Name').fill('Every minute');
    await page.getByLabel('Schedule', { exact: true }).fill('* * * * *');
    await page.getByLabel('Time zone').fill('UTC');
    await page.getByLabel('Grace (minutes)').fill('1');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await expect.poll(() => heading().textContent()).toBe('Every minute');
    monitorId = Number(page.url().split('/').pop());
    expect(monitorId).toBeGreaterThan(0);
    // No pulse yet: the monitor is new, never "up".
    await page.getByText('Waiting for its first run, due ').waitFor();
    // `cronbeat` is not on this machine's PATH: the line names node and the CLI by absolute path.
    expect(await page.getByLabel('cronbeat run', { exact: true }).inputValue()).toMatch(/^\/\S+ \/\S+\/dist\/cronbeat\.cjs run [0-9a-f-]{36} --url http:\/\/127\.0\.0\.1:\d+ -- /);
    await page.getByTestId('cli-path-hint').waitFor();
    await page.getByText('No pulses yet').waitFor();
    await expectNoErrorState(page);
  });

  it('refuses an unknown zone as you type, and shows the API\'s 422 next to its field', async () => {
    await page.goto(`${agent.url}/#/monitors/new`);
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByText('"Mars/Olympus" is not a time zone; give one such as Europe/Paris.').waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();

    // Only the agent knows identifiers are unique: its 422 lands under the field.
    await page.goto(`${agent.url}/#/servers/new`);
    await page.getByLabel('Name').fill('Second box');
    await page.getByLabel('Identifier').fill('backup-01');
    await page.getByLabel('IP address').fill('10.0.0.2');
    await page.getByRole('button', { name: 'Add server' }).click();
    const error = page.locator('#server-identifier-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('The identifier has already been taken.');
    expect(await page.getByLabel('Identifier').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'server-new-422');
    expect((await (await agent.api('/api/servers')).json()).length).toBe(1);
  });

  it('sees the monitor fail live when its deadline passes, and its notification', async () => {
    await page.goto(`${agent.url}/#/monitors/${monitorId}`);
    await page.getByText('Waiting for its first run, due ').waitFor();
    await page.locator('.live-live').waitFor();
    now += 3 * 60_000;
    await step();
    // No reload: the event stream brings the failure.
    await page.locator('[data-testid="monitor-status-text"]', { hasText: 'The run due ' }).waitFor({ timeout: 5000 });
    // The badge says which of the one vocabulary: no run came, so "Missed".
    await page.locator('.status-card [data-problem="missed"]', { hasText: 'Missed' }).waitFor();
    await page.locator('.status-card [data-status="failed"]').waitFor();
    await expectNoErrorState(page);
    await screenshot(page, 'monitor-detail-failed');
    await expect.poll(() => page.title()).toBe('(1 failed, 1 unread) Monitors · Cronbeat');

    await page.getByRole('link', { name: 'Monitors', exact: true }).first().click();
    await page.getByTestId(`monitor-row-${monitorId}`).locator('[data-status="failed"]').waitFor();
    await screenshot(page, 'monitors');

    await page.getByRole('link', { name: 'Notifications', exact: true }).first().click();
    const first = page.getByTestId('notification').first();
    await first.waitFor();
    expect(await first.textContent()).toContain('Every minute');
    await expectNoErrorState(page);
  });

  it('recovers the monitor with a pulse, live', async () => {
    await page.goto(`${agent.url}/#/monitors/${monitorId}`);
    const monitor = await (await agent.api(`/api/monitors/${monitorId}`)).json();
    await page.locator('.status-card [data-status="failed"]').waitFor();
    now += 5_000;
    const pulse = await fetch(monitor.pulse_url, { method: 'POST', body: 'backup done: 42 files' });
    expect(pulse.status).toBe(200);
    await page.getByText('Pulses are arriving on time.').waitFor({ timeout: 5000 });
    await page.locator('summary', { hasText: 'backup done: 42 files' }).waitFor();

    // A timed run: started (shown as running, live), then finished 42 s later.
    now += 1000;
    expect((await fetch(`${monitor.pulse_url}/start?rid=r1`)).status).toBe(200);
    await page.locator('.status-card [data-status="running"]').waitFor({ timeout: 5000 });
    now += 42_000;
    expect((await fetch(`${monitor.pulse_url}/0?rid=r1`, { method: 'POST', body: 'second run' })).status).toBe(200);
    await page.locator('.status-card [data-status="monitoring"]').waitFor({ timeout: 5000 });
    await page.locator('.chart rect').first().waitFor();
    expect(await page.locator('td.numeric', { hasText: '42 s' }).count()).toBe(1);
    await expectNoErrorState(page);
    await screenshot(page, 'monitor-detail');
  });

  it('pages through notifications with the envelope\'s links', async () => {
    for (let i = 0; i < 24; i++) {
      now += 1000;
      const alert = await agent.api('/api/servers/alert', {
        method: 'POST',
        json: { username: 'root', server_id: 'backup-01', command: `/usr/local/bin/backup --run ${i}` },
      });
      expect(alert.status).toBe(201);
    }
    await page.goto(`${agent.url}/#/notifications`);
    await page.getByRole('navigation', { name: 'Notification pages' }).waitFor();
    expect(await page.getByTestId('notification').count()).toBe(20);
    expect(await page.getByTestId('notification').first().textContent()).toContain('--run 23');
    await screenshot(page, 'notifications');
    await page.getByRole('button', { name: 'Next »' }).click();
    await expect.poll(() => page.url()).toContain('page=2');
    await expect.poll(() => page.getByTestId('notification').count()).toBe(6);
    expect(await page.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    await expectNoErrorState(page);

    await page.goto(`${agent.url}/#/servers`);
    await page.getByRole('link', { name: 'Backup box' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(24);
  });

  it('watches a certificate: add, check now, delete', async () => {
    const closedPort = await freePort();
    await page.goto(`${agent.url}/#/certificates`);
    await page.getByText('No certificates watched').waitFor();
    await page.getByLabel('Hostname').fill('127.0.0.1');
    await page.getByLabel('Port').fill(String(closedPort));
    await page.getByRole('button', { name: 'Add' }).click();
    const row = page.locator('tbody tr', { hasText: `127.0.0.1:${closedPort}` });
    await row.locator('[data-status="unreachable"]').waitFor();
    await row.getByRole('button', { name: 'Check now' }).click();
    await row.getByRole('button', { name: 'Check now' }).waitFor();
    await expectNoErrorState(page);
    await screenshot(page, 'certificates-unreachable');
    await row.getByRole('button', { name: 'Delete 127.0.0.1' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete certificate' }).click();
    await page.getByText('No certificates watched').waitFor();
  });

  it('shows the overview, certificates and settings without errors', async () => {
    for (const [path, name, title] of [
      ['/', 'overview', 'Overview'],
      ['/certificates', 'certificates', 'Certificates'],
      ['/settings', 'settings', 'Settings'],
      ['/servers', 'servers', 'Servers'],
    ] as const) {
      await page.goto(`${agent.url}/#${path}`);
      await expect.poll(() => heading().textContent()).toBe(title);
      await page.locator('.state-loading').first().waitFor({ state: 'detached', timeout: 5000 }).catch(async (error) => {
        await screenshot(page, `${name}-stuck`);
        throw error;
      });
      await expectNoErrorState(page);
      await screenshot(page, name);
    }
    await page.goto(`${agent.url}/#/`);
    await expect.poll(() => page.getByTestId('tile-up').textContent()).toContain('1');
    await page.getByTestId('tile-up').click();
    await expect.poll(() => page.url()).toContain('#/monitors?status=monitoring');
    expect(await page.locator('#monitor-status').inputValue()).toBe('monitoring');
  });

  it('is usable with the keyboard alone', async () => {
    await page.goto(`${agent.url}/#/`);
    await page.reload();
    await expect.poll(() => heading().textContent()).toBe('Overview');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    // Skip link, brand, Overview, Monitors.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Monitors');
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().textContent()).toBe('Monitors');
    // Focus moved into the new screen, so the next Tab reaches its controls.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('main h1').click();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('monitor-search');
    await page.keyboard.type('no such monitor');
    await page.getByText('No monitor matches').waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');

    await page.getByRole('link', { name: 'Every minute' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().textContent()).toBe('Every minute');
    await page.getByRole('button', { name: 'Delete…' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect((await agent.api(`/api/monitors/${monitorId}`)).status).toBe(200);
  });

  it('fits 800×600 (in the dark system theme) and 1920×1080', async () => {
    const small = await browser.newContext({ viewport: { width: 800, height: 600 }, colorScheme: 'dark', timezoneId: 'Europe/Paris' });
    const smallPage = await small.newPage();
    await smallPage.goto(createSignInLink(agent.store, agent.url, now));
    await smallPage.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await smallPage.goto(`${agent.url}/#/monitors`);
    await smallPage.getByTestId(`monitor-row-${monitorId}`).waitFor();
    const overflow = await smallPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(smallPage, 'monitors-800x600-dark');
    await small.close();

    const large = await browser.newContext({ viewport: { width: 1920, height: 1080 }, timezoneId: 'Europe/Paris' });
    const largePage = await large.newPage();
    await largePage.goto(createSignInLink(agent.store, agent.url, now));
    await largePage.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await largePage.getByTestId('tile-up').waitFor();
    expect(await largePage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(largePage, 'overview-1920x1080');
    await large.close();
  });

  it('shows a server\'s alerts with what changed and the command it replaced', async () => {
    const posted = await agent.api('/api/servers/alert', {
      method: 'POST',
      json: { username: 'root', server_id: 'backup-01', command: '/usr/local/bin/backup --full', change: 'altered', previous_command: '/usr/local/bin/backup' },
    });
    expect(posted.status).toBe(201);
    await page.goto(`${agent.url}/#/servers`);
    await page.getByRole('link', { name: 'Backup box' }).click();
    const newest = page.getByRole('row').nth(1);
    await expect.poll(() => newest.textContent()).toContain('was: /usr/local/bin/backup');
    expect(await newest.textContent()).toContain('altered');
    await expectNoErrorState(page);
    await screenshot(page, 'server-alerts');
  });

  it('deletes the monitor and the server after confirmation', async () => {
    await page.goto(`${agent.url}/#/monitors/${monitorId}`);
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await screenshot(page, 'monitor-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete monitor' }).click();
    await expect.poll(() => heading().textContent()).toBe('Monitors');
    await page.getByText('No monitors yet').waitFor();
    expect((await agent.api(`/api/monitors/${monitorId}`)).status).toBe(404);

    await page.goto(`${agent.url}/#/servers`);
    await page.getByRole('link', { name: 'Backup box' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete server' }).click();
    await page.getByText('No servers yet').waitFor();
  });

  it('signs out, revoking the session', async () => {
    const token = await page.evaluate(() => localStorage.getItem('cronbeat.token'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in');
    expect((await agent.api('/api/monitors', { token })).status).toBe(401);
    // Chromium logs every 4xx answer; the ones expected here are the refused duplicate (422) and the revoked session (401).
    const expected = /Failed to load resource: the server responded with a status of (401|422)/;
    expect(problems.filter((p) => !expected.test(p))).toEqual([]);
  });
});
