import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

async function expectNoErrorState(page: Page): Promise<void> {
  expect(await page.locator('[data-testid="error-state"]').allInnerTexts(), 'error states on the page').toEqual([]);
}

function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/* Living with monitors in real headless Chromium: edit a monitor, pause and resume it, read notifications. */
describe.skipIf(chromiumMissing)('living with monitors, end to end', { timeout: 30_000 }, () => {
  const now = Date.parse('2026-11-23T10:00:30Z');
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let monitor: { id: number; token: string };

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    problems = watchPageProblems(page);
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const response = await agent.api('/api/monitors', { method: 'POST', json: { name: 'Hourly sync', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } });
    monitor = await response.json();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  const nextDue = () => page.getByTestId('monitor-next-due').locator('time').getAttribute('datetime');

  it('says a new monitor waits for its first run, never "up"', async () => {
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    await page.getByText('Waiting for its first run, due ').waitFor();
    await page.locator('.status-card [data-status="new"]').waitFor();
    await page.locator('.facts', { hasText: 'never' }).waitFor();
    expect(await nextDue()).toBe('2026-11-23T11:05:00.000000Z');
    await page.locator('.live-live').waitFor();
    await screenshot(page, 'living-new-monitor');
  });

  it('edits the schedule in the prefilled form and shows the new next due; an edit elsewhere shows live', async () => {
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit “Hourly sync”' }).waitFor();
    expect(await page.getByLabel('Schedule', { exact: true }).inputValue()).toBe('0 * * * *');
    await page.getByLabel('Schedule', { exact: true }).fill('61 * * * *');
    await page.locator('#monitor-schedule[aria-invalid="true"]').waitFor();
    await page.getByLabel('Schedule', { exact: true }).fill('30 * * * *');
    await screenshot(page, 'living-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Hourly sync', level: 1 }).waitFor();
    await expect.poll(nextDue).toBe('2026-11-23T10:35:00.000000Z');

    // Changed from a terminal while the page is open: no reload needed.
    const patched = await agent.api(`/api/monitors/${monitor.id}`, { method: 'PATCH', json: { duration: 20 } });
    expect((await patched.json()).token).toBe(monitor.token);
    await expect.poll(nextDue, { timeout: 5000 }).toBe('2026-11-23T10:50:00.000000Z');
    await expectNoErrorState(page);
  });

  it('pauses, resumes and snoozes from the monitor page', async () => {
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.locator('.status-card [data-status="paused"]').waitFor();
    await page.getByText('Paused: no alerts until you resume it.').waitFor();
    await screenshot(page, 'living-paused');
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).status).toBe('paused');

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('.status-card [data-status="new"]').waitFor();
    await expect.poll(nextDue).toBe('2026-11-23T10:50:00.000000Z');

    await page.getByRole('button', { name: 'Snooze 1 h' }).click();
    await page.getByText('Snoozed: no alerts until').waitFor();
    const snoozed = await (await agent.api(`/api/monitors/${monitor.id}`)).json();
    expect(snoozed.status).toBe('paused');
    expect(Date.parse(snoozed.paused_until) - Date.now()).toBeGreaterThan(55 * 60_000);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('.status-card [data-status="new"]').waitFor();
    await expectNoErrorState(page);
  });

  it('shows the unread count in the navigation and the title, and it falls as notifications are read', async () => {
    // Every request of the page from here on, to see how it counts.
    const asked: string[] = [];
    const noteRequest = (request: { url(): string }) => asked.push(new URL(request.url()).pathname + new URL(request.url()).search);
    page.on('request', noteRequest);
    await agent.api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.1', identifier: 'web' } });
    for (const command of ['a.sh', 'b.sh', 'c.sh']) {
      await agent.api('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: 'web', command } });
    }
    await page.goto(`${agent.url}/#/notifications`);
    const count = page.getByTestId('unread-count');
    await expect.poll(() => count.textContent()).toBe('3');
    // Counted, not listed: the list's envelope names every page, a million entries at a million unread.
    // A fresh load asks for the count whatever was in flight before.
    await page.reload();
    await expect.poll(() => count.textContent()).toBe('3');
    page.off('request', noteRequest);
    expect(asked).toContain('/api/notifications/count?kinds=all&unread=1');
    expect(asked.filter((path) => /[?&]per_page=1(&|$)/.test(path))).toEqual([]);
    await expect.poll(() => page.title()).toBe('(3 unread) Notifications · Cronbeat');
    // The count comes by a request of its own: the list's rows may be drawn a moment after it.
    await expect.poll(() => page.locator('.notification-unread').count()).toBe(3);
    await screenshot(page, 'living-unread');

    await page.getByTestId('toggle-read').first().click();
    await expect.poll(() => count.textContent()).toBe('2');
    await expect.poll(() => page.locator('.notification-unread').count()).toBe(2);
    await expect.poll(() => page.title()).toBe('(2 unread) Notifications · Cronbeat');

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await count.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.notification-unread').count()).toBe(0);
    await expect.poll(() => page.title()).toBe('Notifications · Cronbeat');
    await screenshot(page, 'living-all-read');
    await expectNoErrorState(page);
    expect(problems).toEqual([]);
  });
});
