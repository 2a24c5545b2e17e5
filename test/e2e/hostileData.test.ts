import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * What users and their jobs really send: names of one unbroken word (a file name, a token, a
 * hash), emoji, and output with terminal colours. No screen may grow wider than the window
 * for them (a control off to the right is a control nobody finds), and output reads as text.
 */

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

const LONG_WORD = `backup_${'accounting_ledger_'.repeat(8)}🚀`;
/** A key's name may be at most 100 characters. */
const KEY_NAME = LONG_WORD.slice(0, 90);

/** What does not fit: the page scrolling sideways, a table wider than its card ("what by px"). */
function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`scrolls sideways by ${root.scrollWidth - root.clientWidth}px`);
    for (const wrap of document.querySelectorAll<HTMLElement>('.table-wrap')) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) found.push(`has a table wider than its card by ${wrap.scrollWidth - wrap.clientWidth}px`);
    }
    return found;
  });
}

describe.skipIf(chromiumMissing)('hostile names and output', { timeout: 90_000 }, () => {
  let now = Date.now();
  let agent: TestAgent;
  let browser: Browser;
  let monitorId = 0;
  let serverId = 0;

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    const post = async (path: string, json: unknown) => {
      const response = await agent.api(path, { method: 'POST', json });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return response.json();
    };
    const monitor = await post('/api/monitors', { name: LONG_WORD, schedule: '*/5 * * * *', timezone: 'Europe/Paris', duration: 5, tags: [`team:${'platform'.repeat(5)}`] });
    monitorId = monitor.id;
    now += 60_000;
    await agent.api(`/api/pulse/${monitor.token}`, { method: 'POST', body: '\u001b[31mERROR\u001b[0m \u001b[1mdisk full\u001b[0m\n\u001b]0;title\u0007done' });
    serverId = (await post('/api/servers', { name: LONG_WORD, ip_address: 'fd00:1234:5678:9abc:def0:1234:5678:9abc', identifier: 'i'.repeat(64) })).id;
    await post('/api/channels', { name: LONG_WORD, kind: 'webhook', settings: { url: `https://hooks.example.com/${'a'.repeat(200)}` } });
    await post('/api/maintenance-windows', {
      name: LONG_WORD,
      starts_at: new Date(now + 3_600_000).toISOString(),
      ends_at: new Date(now + 7_200_000).toISOString(),
      // What it covers is listed by name and tag, each of one long word too (a tag may have 50 characters).
      monitor_ids: [monitorId],
      tags: [`rack:${'b'.repeat(45)}`],
    });
    await post('/api/keys', { name: KEY_NAME, scope: 'ping' });
    // A failure whose alert goes to the channel of the long name: its delivery badge names it.
    const failing = await post('/api/monitors', { name: 'Fails once', schedule: '*/5 * * * *', timezone: 'UTC', duration: 5 });
    now += 60_000;
    await agent.api(`/api/pulse/${failing.token}/1`, { method: 'POST', body: 'boom' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  for (const size of SIZES) {
    const label = `${size.width}x${size.height}`;
    it(`keeps every screen within the window at ${label} with a name of one long word`, async () => {
      const context = await browser.newContext({ viewport: size, timezoneId: 'Europe/Paris', locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(createSignInLink(agent.store, agent.url, now));
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      const screens: [string, string, string | { testId: string }][] = [
        ['monitors', '#/monitors', LONG_WORD],
        ['monitor', `#/monitors/${monitorId}`, 'Run history'],
        ['servers', '#/servers', LONG_WORD],
        ['server', `#/servers/${serverId}`, 'Alert channels'],
        ['channels', '#/channels', LONG_WORD],
        ['maintenance', '#/maintenance', LONG_WORD],
        ['notifications', '#/notifications', { testId: 'deliveries' }],
        ['settings', '#/settings', KEY_NAME],
      ];
      const found: string[] = [];
      for (const [name, hash, text] of screens) {
        await page.goto(`${agent.url}/${hash}`);
        await (typeof text === 'string' ? page.getByText(text) : page.getByTestId(text.testId)).first().waitFor();
        await screenshot(page, `hostile-${name}-${label}`);
        for (const what of await overflows(page)) found.push(`${name} ${what}`);
      }
      expect(found).toEqual([]);
      // A server's times are the viewer's: the column says whose, as the Maintenance page's does.
      await page.goto(`${agent.url}/#/servers`);
      await page.getByRole('columnheader', { name: 'Added (Europe/Paris)' }).waitFor();
      expect(await overflows(page)).toEqual([]);
      // The confirmation naming it keeps both its buttons in the window.
      await page.goto(`${agent.url}/#/monitors/${monitorId}`);
      await page.getByRole('button', { name: 'Delete…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await screenshot(page, `hostile-delete-${label}`);
      for (const name of ['Cancel', 'Delete monitor']) {
        const box = (await dialog.getByRole('button', { name }).boundingBox())!;
        expect(box.x >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height, `${name} at ${JSON.stringify(box)}`).toBe(true);
      }
      await context.close();
    });
  }

  it('keeps a channel of one long word beside its tick box in Alert channels', async () => {
    const context = await browser.newContext({ viewport: SIZES[0], timezoneId: 'Europe/Paris', locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.goto(`${agent.url}/#/monitors/${monitorId}`);
    const label = page.getByTestId('channel-picker').locator('label').filter({ hasText: 'backup_accounting' });
    await label.waitFor();
    // The tick box and the name's first line share a line: a box alone above a name reads as belonging to the row before.
    const apart = await label.evaluate((el) => {
      const box = el.querySelector('input')!.getBoundingClientRect();
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let node: Node | null;
      while ((node = walker.nextNode()) && !node.textContent!.includes('backup_'));
      const range = document.createRange();
      range.selectNodeContents(node!);
      const first = range.getClientRects()[0]!;
      return Math.abs((box.top + box.bottom) / 2 - (first.top + first.bottom) / 2);
    });
    expect(apart).toBeLessThan(10);
    await screenshot(page, 'hostile-channel-picker-800x600');
    await context.close();
  });

  it('shows a run\'s output without its terminal escapes', async () => {
    const context = await browser.newContext({ viewport: SIZES[1], timezoneId: 'Europe/Paris', locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.goto(`${agent.url}/#/monitors/${monitorId}`);
    const summary = page.locator('.cell-output summary').first();
    await summary.waitFor();
    expect(await summary.textContent()).toBe('ERROR disk full');
    await summary.click();
    expect(await page.locator('.cell-output pre.output').first().textContent()).toBe('ERROR disk full\ndone');
    await context.close();
  });
});
