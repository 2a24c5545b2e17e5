import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { Receiver } from '../helpers/receiver';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * Screens where two features meet, looked at in real headless Chromium: the
 * channel picker on a paused monitor's page, the navigation at 800×600 with both issues' items,
 * and the overview's count of new and paused monitors.
 */
describe.skipIf(chromiumMissing)('screens after the living and channels merge', { timeout: 30_000 }, () => {
  let now = Date.parse('2026-11-23T10:00:30Z');
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  let paused: { id: number };
  let hook: Receiver;

  const post = async (path: string, json: unknown) => (await agent.api(path, { method: 'POST', json })).json();

  beforeAll(async () => {
    hook = await new Receiver([{ status: 200, body: 'ok' }]).start();
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await post('/api/channels', { name: 'Ops hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook' } });
    await post('/api/channels', { name: 'Phone', kind: 'ntfy', settings: { topic: 'cronbeat-review-topic' } });
    paused = await post('/api/monitors', { name: 'Nightly backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 });
    await post(`/api/monitors/${paused.id}/pause`, {});
    await post('/api/monitors', { name: 'Brand new', timezone: 'UTC', schedule: '0 4 * * *', duration: 5 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
    await hook?.stop();
  });

  it('shows the channel picker\'s radios and checkboxes as small boxes beside their labels', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${agent.url}/#/monitors/${paused.id}`);
    const picker = page.getByTestId('channel-picker');
    await picker.getByText('Ops hook').waitFor();
    await screenshot(page, 'merged-paused-monitor-1280');
    for (const box of await picker.locator('input[type="radio"], input[type="checkbox"]').all()) {
      const input = (await box.boundingBox())!;
      const label = (await box.locator('xpath=ancestor::label').boundingBox())!;
      expect(input.width, 'a tick box is a small box').toBeLessThan(30);
      expect(input.height, 'a tick box is a small box').toBeLessThan(30);
      expect(label.height, 'the box and its words share one line').toBeLessThan(32);
    }
  });

  it('keeps every navigation item in sight at 800×600', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(`${agent.url}/#/notifications`);
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await screenshot(page, 'merged-notifications-800');
    for (const link of await page.getByRole('navigation', { name: 'Main' }).getByRole('link').all()) {
      const name = await link.innerText();
      const seen = await link.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.right <= window.innerWidth && hit !== null && el.contains(hit);
      });
      expect(seen, `"${name}" can be seen`).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('counts new and paused monitors on the overview, neither green nor red', async () => {
    await page.goto(`${agent.url}/#/`);
    await page.getByTestId('tile-up').waitFor();
    expect(await page.getByTestId('tile-paused').innerText()).toMatch(/^1\s+Paused$/);
    expect(await page.getByTestId('tile-new').innerText()).toMatch(/^1\s+New$/);
    for (const id of ['tile-paused', 'tile-new']) {
      expect(await page.getByTestId(id).getAttribute('class')).toBe('tile');
    }
    expect(await page.getByTestId('tile-paused').getAttribute('href')).toBe('#/monitors?status=paused');
  });

  it('shows a failure and its recovery, delivered to a webhook, with their words, read buttons and delivery badges together', async () => {
    const channel = await post('/api/channels', { name: 'Receiver', kind: 'webhook', settings: { url: `${hook.url}/in` } });
    const monitor = await post('/api/monitors', { name: 'Routed job', timezone: 'UTC', schedule: '0 * * * *', duration: 5, channel_ids: [channel.id] });
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST' });
    now += 60_000; // the recovery is the newer one, listed first
    await fetch(`${agent.url}/api/pulse/${monitor.token}`, { method: 'POST' });
    await hook.received(2);
    expect(hook.requests.map((r) => r.headers['x-cronbeat-event'])).toEqual([
      'monitor.failed',
      'monitor.recovered',
    ]);
    await page.goto(`${agent.url}/#/notifications`);
    const items = page.getByTestId('notification');
    await expect.poll(() => items.count()).toBe(2);
    for (const [index, word] of [[0, 'Recovered'], [1, 'Failed']] as const) {
      const item = items.nth(index);
      await expect.poll(() => item.getByTestId('deliveries').textContent()).toContain('Receiver (Webhook): sent');
      expect(await item.locator('.status-word').innerText()).toMatch(new RegExp(word, 'i'));
      expect(await item.getByTestId('toggle-read').innerText()).toBe('Mark read');
    }
    // The badge reads as one phrase: no flex gap between "(Webhook)" and its colon.
    const gap = await items.first().getByTestId('deliveries').locator('.badge .muted').first().evaluate((kind) => {
      const colon = kind.nextSibling!;
      const range = document.createRange();
      range.setStart(colon, 0);
      range.setEnd(colon, 1);
      return range.getBoundingClientRect().left - kind.getBoundingClientRect().right;
    });
    expect(gap).toBeLessThan(2);
    // Both count as unread, though the recovery is not one of the spec's kinds.
    expect(await page.getByTestId('unread-count').innerText()).toBe('2');
    await screenshot(page, 'merged-notifications-deliveries-1280');
  });
});
