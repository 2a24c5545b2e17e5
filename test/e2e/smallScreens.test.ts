import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * The monitors table and a monitor's page (run line, run history) at
 * 800×600 and 1280×800, with long names and outputs. Nothing may be cut: no cell whose content
 * is wider than the cell, no table wider than its card, no sideways scroll of the page.
 */

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

/** Cells whose content overflows them, or tables wider than their wrapper: "what (px)". */
function clippedParts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const page = document.documentElement;
    if (page.scrollWidth > page.clientWidth) found.push(`page scrolls sideways by ${page.scrollWidth - page.clientWidth}px`);
    for (const wrap of document.querySelectorAll<HTMLElement>('.table-wrap')) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) found.push(`table wider than its card by ${wrap.scrollWidth - wrap.clientWidth}px`);
    }
    for (const cell of document.querySelectorAll<HTMLElement>('td, th')) {
      if (cell.offsetParent === null) continue; // hidden: its meaning is elsewhere (a detail line)
      if (cell.scrollWidth > cell.clientWidth + 1) found.push(`cell "${cell.textContent?.slice(0, 30)}" cut by ${cell.scrollWidth - cell.clientWidth}px`);
    }
    return found;
  });
}

describe.skipIf(chromiumMissing)('the dashboard from 800×600 up', { timeout: 60_000 }, () => {
  let now = Date.now();
  let agent: TestAgent;
  let browser: Browser;
  let monitorId = 0;
  let snoozedId = 0;

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    const create = async (json: Record<string, unknown>) => (await agent.api('/api/monitors', { method: 'POST', json })).json();
    const long = await create({
      name: 'Nightly PostgreSQL dump of the accounting database to the offsite bucket',
      schedule: '30 2 * * 1-5',
      timezone: 'Europe/Paris',
      duration: 45,
    });
    monitorId = long.id;
    await create({ name: 'Every five minutes', schedule: '*/5 * * * *', timezone: 'UTC', duration: 5 });
    const office = await create({ name: 'Office hours sync', schedule: '*/15 9-17 * * 1-5', timezone: 'America/New_York', duration: 1440 });
    snoozedId = office.id;
    await agent.api(`/api/monitors/${office.id}/pause`, { method: 'POST', json: { until: new Date(now + 30 * 3_600_000).toISOString() } });
    const failing = await create({ name: 'Mail queue flush', schedule: '* * * * *', timezone: 'UTC', duration: 1 });
    for (const [i, body] of ['pg_dump: dumping contents of table "public.ledger_entries_2026_archive_with_a_very_long_name"\n'.repeat(3), 'ok', ''].entries()) {
      now += 60_000;
      await agent.api(`/api/pulse/${long.token}/start?rid=r${i}`, { method: 'POST' });
      now += 90_000 + i * 10_000;
      await agent.api(`/api/pulse/${long.token}?rid=r${i}${i === 2 ? '&exit_code=3' : ''}`, { method: 'POST', body });
    }
    now += 3 * 60_000;
    await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
    expect((await (await agent.api(`/api/monitors/${failing.id}`)).json()).is_alerted).toBeTruthy();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  it('says a snooze in the run history labelled with the monitor\'s zone and UTC, the viewer\'s on hover', async () => {
    const context = await browser.newContext({ viewport: SIZES[0], timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.goto(`${agent.url}/#/monitors/${snoozedId}`);
    const note = page.locator('.history-note').first();
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^Snoozed until /);
    // On the monitor's page every time is labelled with its zone (the viewer is in Tokyo).
    expect(await note.textContent()).toMatch(/^Snoozed until \w{3} \d{1,2} \w{3} \d\d:\d\d [A-Za-z_]+\/[A-Za-z_]+ \(.*UTC\)/);
    expect(await note.locator('time').getAttribute('title')).toMatch(/in your time zone$/);
    await context.close();
  });

  it('says times in 24-hour whatever the locale: one time format, as schedules and quiet hours are written', async () => {
    const context = await browser.newContext({ viewport: SIZES[1], timezoneId: 'America/New_York', locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.goto(`${agent.url}/#/monitors/${monitorId}`);
    const runLine = page.getByTestId('run-line');
    await runLine.waitFor();
    const text = await page.locator('main').innerText();
    // Labelled with its zone, in the one format: the monitor's zone and UTC, whatever the viewer's.
    expect(text).toMatch(/· next \w{3} \d{1,2} \w{3} 02:30 Europe\/Paris \((\w{3} \d{1,2} \w{3} )?01:30 UTC\)/);
    expect(text).not.toMatch(/\d(:\d\d)? ?(AM|PM)\b/);
    await context.close();
  });

  for (const size of SIZES) {
    const label = `${size.width}x${size.height}`;

    it(`shows the monitors table whole at ${label}`, async () => {
      const context = await browser.newContext({ viewport: size, timezoneId: 'Europe/Paris', locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(createSignInLink(agent.store, agent.url, now));
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await page.goto(`${agent.url}/#/monitors`);
      await page.getByTestId(`monitor-row-${monitorId}`).waitFor();
      await screenshot(page, `first-hour-monitors-${label}`);
      expect(await clippedParts(page)).toEqual([]);
      // Every column's meaning is on the row, in its cell or (narrow) in the name's detail line.
      const row = page.getByTestId(`monitor-row-${monitorId}`);
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('Nightly PostgreSQL dump');
      expect(text).toContain('At 02:30 Europe/Paris, Monday through Friday');
      expect(text).toMatch(/Next due|in \d+|Tomorrow|Today|\d{1,2} \w{3}/);
      await context.close();
    });

    it(`shows a monitor's run line and run history whole at ${label}`, async () => {
      const context = await browser.newContext({ viewport: size, timezoneId: 'Europe/Paris', locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(createSignInLink(agent.store, agent.url, now));
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await page.goto(`${agent.url}/#/monitors/${monitorId}`);
      const runLine = page.getByTestId('run-line');
      await runLine.waitFor();
      const line = (await runLine.innerText()).replace(/\s+/g, ' ');
      expect(line).toMatch(/at 02:30 Europe\/Paris, Monday through Friday/i);
      expect(line).toMatch(/· next \w{3} \d{1,2} \w{3} 02:30 Europe\/Paris \(01:30 UTC\)/);
      await page.getByRole('heading', { name: 'Run history' }).scrollIntoViewIfNeeded();
      await screenshot(page, `first-hour-monitor-${label}`);
      expect(await clippedParts(page)).toEqual([]);
      await context.close();
    });
  }
});
