import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

async function expectNoErrorState(page: Page): Promise<void> {
  expect(await page.locator('[data-testid="error-state"]').allInnerTexts(), 'error states on the page').toEqual([]);
}

/** A port nothing listens on, so a certificate check there is refused at once. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/*
 * The first hour of a new user, in real headless Chromium against a real agent: the schedule
 * and zone fields, times in the viewer's zone, notifications that differ by more than colour,
 * the Overview's cards, the chart's axes, the agent going away, and 800×600.
 */
describe.skipIf(chromiumMissing)('the dashboard in the first hour', { timeout: 30_000 }, () => {
  let now = Date.now();
  let agent: TestAgent;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    // The viewer is in Tokyo; the monitors below run in UTC, so every time differs by 9 h.
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  const heading = () => page.getByRole('heading', { level: 1 });

  it('offers to add a server and a certificate from the empty Overview cards', async () => {
    // The first screen says what a monitor is, as the Monitors page does, before asking for one.
    await page.getByRole('region', { name: 'Monitors' }).getByText('A monitor expects a pulse from a scheduled job and tells you when one is late.').waitFor();
    const servers = page.getByRole('region', { name: 'Servers' });
    await servers.getByText('No servers yet').waitFor();
    const certificates = page.getByRole('region', { name: 'Certificates' });
    await certificates.getByText('No certificates watched').waitFor();
    await screenshot(page, 'first-hour-overview-empty');
    await servers.getByRole('link', { name: 'Add server' }).click();
    await expect.poll(() => heading().textContent()).toBe('Add server');
    await page.goto(`${agent.url}/#/`);
    await page.getByRole('region', { name: 'Certificates' }).getByRole('link', { name: 'Add certificate' }).click();
    await expect.poll(() => heading().textContent()).toBe('Certificates');
  });

  it('takes cron macros, refuses H and explains a bad field in words, and finds zones by place', async () => {
    await page.goto(`${agent.url}/#/monitors/new`);
    const schedule = page.getByLabel('Schedule', { exact: true });
    await schedule.fill('H * * * *');
    await page.getByText('The minute field has "H": a five-field cron has no H.').waitFor();
    await schedule.fill('0 25 * * *');
    await page.getByText('The hour field is 25, but hours go from 0 to 23.').waitFor();
    expect(await page.getByText('Constraint error').count()).toBe(0);
    await schedule.fill('@daily');
    await page.getByText('At 00:00 Asia/Tokyo.').waitFor();

    const zone = page.getByLabel('Time zone');
    await zone.fill('Europe');
    await page.getByText('The timezone field must be a valid time zone: "Europe" is not a time zone: did you mean Europe/Kyiv, Europe/Lisbon or Asia/Nicosia?').waitFor();
    await zone.fill('pari');
    await page.getByRole('button', { name: 'Paris · France · Europe/Paris' }).click();
    expect(await zone.inputValue()).toBe('Europe/Paris');
    await zone.fill('new york');
    await page.getByText('new york → America/New_York').waitFor();
    expect(await page.locator('.next-runs li').count()).toBe(5);
    await expect.poll(() => page.locator('.next-runs li').first().textContent()).toMatch(/ America\/New_York \(.*UTC\)$/);
    await screenshot(page, 'first-hour-monitor-new');

    await page.getByLabel('Name').fill('Nightly report');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await expect.poll(() => heading().textContent()).toBe('Nightly report');
    const id = Number(page.url().split('/').pop());
    const monitor = await (await agent.api(`/api/monitors/${id}`)).json();
    expect(monitor).toMatchObject({ schedule: '0 0 * * *', timezone: 'America/New_York' });

    // The line works as copied on this machine, where `cronbeat` is not on the PATH.
    const line = await page.getByLabel('cronbeat run', { exact: true }).inputValue();
    expect(line).toMatch(/^\/\S+ \/\S+\/dist\/cronbeat\.cjs run [0-9a-f-]{36} --url http:\/\/127\.0\.0\.1:\d+ -- /);
    await page.getByTestId('cli-path-hint').waitFor();

    // "Paris" typed alone is Europe/Paris, as the API stores it.
    await page.goto(`${agent.url}/#/monitors/new`);
    await page.getByLabel('Name').fill('Paris job');
    await page.getByLabel('Time zone').fill('Paris');
    await page.getByText('Paris → Europe/Paris').waitFor();
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await expect.poll(() => heading().textContent()).toBe('Paris job');
    const paris = await (await agent.api(`/api/monitors/${Number(page.url().split('/').pop())}`)).json();
    expect(paris.timezone).toBe('Europe/Paris');
  });

  let monitorId = 0;

  it('shows a failure reason in the viewer\'s zone with UTC on hover, and failed and recovered with their own icon and word', async () => {
    const created = await (
      await agent.api('/api/monitors', { method: 'POST', json: { name: 'Every minute', schedule: '* * * * *', timezone: 'UTC', duration: 1 } })
    ).json();
    monitorId = created.id;
    now += 3 * 60_000;
    await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
    const reason = (await (await agent.api(`/api/monitors/${monitorId}`)).json()).alert_reason as string;
    expect(reason).toMatch(/^Missed: the run due \d{4}-\d\d-\d\d \d\d:\d\d UTC did not come/); // the API keeps its text

    await page.goto(`${agent.url}/#/monitors/${monitorId}`);
    const status = page.getByTestId('monitor-status-text');
    await status.locator('time').waitFor();
    const shown = await status.locator('time').first();
    const at = new Date((await shown.getAttribute('datetime'))!);
    // On the monitor's page every time is labelled with its zone: the monitor's (UTC here), not the viewer's (Tokyo) unlabelled.
    const utc = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    expect(await shown.textContent()).toMatch(new RegExp(`^\\w{3} \\d{1,2} \\w{3} ${utc} UTC$`));
    expect(await shown.getAttribute('title')).toBe(`${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
    await screenshot(page, 'first-hour-reason-in-viewer-zone');

    now += 5_000;
    expect((await fetch(created.pulse_url ?? `${agent.url}/api/pulse/${created.token}`)).status).toBe(200);
    await page.goto(`${agent.url}/#/notifications`);
    const failed = page.getByTestId('notification').filter({ hasText: 'Every minute missed its run' });
    const recovered = page.getByTestId('notification').filter({ hasText: 'Every minute recovered' });
    await failed.waitFor();
    await recovered.waitFor();
    expect(await failed.locator('.status-word').textContent()).toBe('Missed'); // the one vocabulary: no run came
    expect(await recovered.locator('.status-word').textContent()).toBe('Recovered');
    expect(await failed.locator('.kind-icon').getAttribute('data-icon')).toBe('failed');
    expect(await recovered.locator('.kind-icon').getAttribute('data-icon')).toBe('recovered');
    expect(await failed.locator('path').getAttribute('d')).not.toBe(await recovered.locator('path').getAttribute('d'));
    // Descriptions carry their times in the viewer's zone too.
    expect(await recovered.locator('.notification-description').textContent()).not.toContain('UTC');
    await recovered.locator('.notification-description time').waitFor();
    // ...and the page says whose zone that is, so "09:02 today" never reads as the monitor's or the server's clock.
    expect(await page.locator('.page-header').textContent()).toContain('Times in your zone, Asia/Tokyo (UTC on hover)');
    await expectNoErrorState(page);
    // The Overview's failure reasons and latest notifications are in that zone too.
    await page.goto(`${agent.url}/#/`);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await page.locator('.page-header').textContent()).toContain('Times in your zone, Asia/Tokyo (UTC on hover)');
    await screenshot(page, 'first-hour-notifications');
  });

  it('draws the duration chart with axes', async () => {
    const monitor = await (await agent.api(`/api/monitors/${monitorId}`)).json();
    for (const [rid, seconds] of [['a', 12], ['b', 42], ['c', 30]] as const) {
      now += 1000;
      expect((await fetch(`${monitor.pulse_url}/start?rid=${rid}`)).status).toBe(200);
      now += seconds * 1000;
      expect((await fetch(`${monitor.pulse_url}/0?rid=${rid}`)).status).toBe(200);
    }
    await page.goto(`${agent.url}/#/monitors/${monitorId}`);
    const yAxis = page.getByTestId('chart-y-axis');
    await yAxis.waitFor();
    expect(await yAxis.locator('span').allTextContents()).toEqual(['50 s', '25 s', '0']);
    expect(await page.getByTestId('chart-x-axis').locator('time').count()).toBe(2);
    await page.locator('.chart').screenshot({ path: 'test-results/screenshots/first-hour-chart.png' });
  });

  it('lists a certificate once per port, with the certificate list\'s colours', async () => {
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      const response = await agent.api('/api/ssl-certificates', { method: 'POST', json: { hostname: '127.0.0.1', port } });
      expect(response.status).toBe(201);
    }
    await page.goto(`${agent.url}/#/`);
    const items = page.getByTestId('overview-certificate');
    await expect.poll(() => items.count()).toBe(2);
    await expect.poll(() => items.locator('[data-status="unreachable"]').count()).toBe(2);
    for (const port of ports) await items.filter({ hasText: `127.0.0.1:${port}` }).waitFor();
    expect(await items.locator('.badge-bad').count()).toBe(2);
    expect(await items.locator('.text-warn').count()).toBe(0);
    await screenshot(page, 'first-hour-overview-certificates');
  });

  it('shows a server whose watcher went quiet', async () => {
    await agent.api('/api/servers', { method: 'POST', json: { name: 'Web box', ip_address: '10.0.0.5', identifier: 'web-5' } });
    expect((await agent.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: 'web-5', interval_seconds: 60, jobs: 3 } })).status).toBe(200);
    await page.goto(`${agent.url}/#/servers`);
    await page.getByTestId('last-report').waitFor();
    expect(await page.getByText('Quiet', { exact: true }).count()).toBe(0);
    now += 10 * 60_000;
    // Stepped at once, as the loop steps at a watcher's quiet moment: a jump the loop's heartbeat saw first would be an outage, after which a watcher's silence counts afresh.
    await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
    await page.reload();
    await page.getByTestId('quiet-servers').waitFor();
    await page.getByTestId('last-report').getByText('Quiet').waitFor();
    await screenshot(page, 'first-hour-servers-quiet');
    await page.goto(`${agent.url}/#/`);
    await page.getByTestId('tile-quiet').waitFor();
  });

  it('makes stale data obvious while the agent does not answer', async () => {
    // An agent of its own, to stop it under the page.
    const doomed = await startTestAgent({ rendererDir: builtRenderer() });
    const backup = await (await doomed.api('/api/monitors', { method: 'POST', json: { name: 'Backup', schedule: '@daily', timezone: 'UTC', duration: 30 } })).json();
    // A timed run, so the row has a last duration to keep.
    await doomed.api(`/api/pulse/${backup.token}/start?rid=a`, { method: 'POST' });
    await doomed.api(`/api/pulse/${backup.token}?rid=a`, { method: 'POST' });
    const own = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    const ownPage = await own.newPage();
    await ownPage.goto(createSignInLink(doomed.store, doomed.url, Date.now()));
    await ownPage.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await ownPage.goto(`${doomed.url}/#/monitors`);
    await ownPage.getByRole('link', { name: 'Backup' }).waitFor();
    await ownPage.locator('.live-live').waitFor();
    const duration = ownPage.getByRole('row', { name: /Backup/ }).locator('td.numeric');
    await expect.poll(() => duration.textContent()).toMatch(/\d+ ms/);
    const known = await duration.textContent();
    // The dashboard reads every list again while the agent is away; a duration it could not read again is still the one it knew, never "—" (no timed run).
    const pulsesFailed = ownPage.waitForEvent('requestfailed', { predicate: (r) => r.url().includes('/pulses'), timeout: 15_000 });
    await doomed.stop();
    const banner = ownPage.getByTestId('agent-down');
    await banner.waitFor({ timeout: 15_000 });
    await pulsesFailed;
    await ownPage.evaluate(() => new Promise((settled) => requestAnimationFrame(() => setTimeout(settled, 0))));
    expect(await duration.textContent()).toBe(known);
    expect(await banner.textContent()).toMatch(/not answering since .*What you see is from .* and may be out of date/);
    expect(await ownPage.locator('main').getAttribute('class')).toContain('content-stale');
    await screenshot(ownPage, 'first-hour-agent-down');
    await own.close();
  });

  it('shows the certificates table whole at 800×600, Delete button included', async () => {
    // A viewer in a zone of a long name, which the Expires column names.
    const small = await browser.newContext({ viewport: { width: 800, height: 600 }, timezoneId: 'America/North_Dakota/New_Salem', locale: 'en-GB' });
    const smallPage = await small.newPage();
    await smallPage.goto(createSignInLink(agent.store, agent.url, now));
    await smallPage.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    // A real-looking row: a long host name, an expiry date, a long issuer.
    agent.store.db
      .prepare(
        `INSERT INTO ssl_certificates (company_id, hostname, port, warn_days, status, expires_at, issuer, last_checked_at, next_check_at, created_at, updated_at)
         VALUES (1, 'backup-reports.internal.example.com', 8443, 14, 'valid', @expires, 'Let''s Encrypt, R11 (Internet Security Research Group)', @now, @later, @now, @now)`,
      )
      .run({ now, expires: now + 80 * 86_400_000, later: now + 86_400_000 });
    // Written behind the agent's back: say so as the checker does, or the dashboard's cache (kept by the live stream) never hears of it.
    agent.events.emit({ type: 'certificate.changed', companyId: 1, certificateId: 0 });
    await smallPage.goto(`${agent.url}/#/certificates`);
    const remove = smallPage.getByRole('button', { name: 'Delete backup-reports.internal.example.com' });
    await remove.waitFor();
    await screenshot(smallPage, 'first-hour-certificates-800x600');
    // The expiry is in the viewer's clock, and says whose, as the servers' and maintenance lists do.
    await smallPage.getByRole('columnheader', { name: 'Expires (America/North_Dakota/New_Salem)' }).waitFor();
    const clipped = await smallPage.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth);
    expect(clipped).toBeLessThanOrEqual(0);
    const box = (await remove.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(800);
    // The servers' Added column names the same zone, and keeps its table whole too.
    await smallPage.goto(`${agent.url}/#/servers`);
    await smallPage.getByRole('columnheader', { name: 'Added (America/North_Dakota/New_Salem)' }).waitFor();
    expect(await smallPage.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth)).toBeLessThanOrEqual(0);
    await small.close();
  });

  it('shows every section of the navigation at 800×600', async () => {
    const small = await browser.newContext({ viewport: { width: 800, height: 600 }, timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    const smallPage = await small.newPage();
    await smallPage.goto(createSignInLink(agent.store, agent.url, now));
    await smallPage.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const nav = smallPage.getByRole('navigation', { name: 'Main' });
    await screenshot(smallPage, 'first-hour-navigation-800x600');
    const navBox = (await nav.boundingBox())!;
    for (const name of ['Overview', 'Monitors', 'Servers', 'Certificates', 'Notifications', 'Channels', 'Settings']) {
      const box = (await nav.getByRole('link', { name: new RegExp(`^${name}`) }).boundingBox())!;
      expect(box.x + box.width, `${name} inside the navigation`).toBeLessThanOrEqual(navBox.x + navBox.width);
    }
    await small.close();
  });
});
