import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium } from './browser';

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

const MONITORS = 300;

/*
 * The live cache in real headless Chromium: one cache entry per list
 * (a screen and the window title share the monitors' list), a live change of one monitor read
 * alone and drawn in its row alone, and a long list kept short in the page.
 */
describe.skipIf(chromiumMissing)('dashboard data: one request per list, live rows', { timeout: 30_000 }, () => {
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const requests: string[] = [];
  const monitors: { id: number; token: string; name: string }[] = [];
  /** How many requests for `path` (exactly, query ignored) the page sent so far. */
  const sent = (path: string) => requests.filter((p) => p === path).length;

  beforeAll(async () => {
    agent = await startTestAgent({ rendererDir: builtRenderer() });
    for (let i = 0; i < MONITORS; i++) {
      const name = `job ${String(i).padStart(3, '0')}`;
      const created = await (await agent.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
      // A first pulse each, so every monitor is up and a later pulse changes its last run only.
      await fetch(`${agent.url}/api/pulse/${created.token}`);
      monitors.push({ id: created.id, token: created.token, name });
    }
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    await context.addInitScript((token) => localStorage.setItem('cronbeat.token', token), agent.token);
    page = await context.newPage();
    problems = watchPageProblems(page);
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  it('fetches each list of the overview once, though the window title counts the same monitors', async () => {
    await page.goto(`${agent.url}/#/`);
    await page.getByTestId('tile-up').waitFor();
    await page.getByRole('heading', { name: 'Latest notifications' }).waitFor();
    await expect.poll(() => page.title()).toBe('Cronbeat');
    expect(sent('/api/monitors')).toBe(1);
    expect(sent('/api/servers')).toBe(1);
    expect(sent('/api/ssl-certificates')).toBe(1);
    await expectNoErrorState(page);
  });

  it('opens the monitors screen from the cache, with only the rows near the viewport in the page', async () => {
    await page.getByRole('link', { name: 'Monitors', exact: true }).first().click();
    await page.getByTestId(`monitor-row-${monitors[0]!.id}`).waitFor();
    expect(sent('/api/monitors')).toBe(1);
    const rows = await page.locator('tr[data-testid^="monitor-row-"]').count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(60);
    expect(await page.locator('table').getAttribute('aria-rowcount')).toBe(String(MONITORS + 1));
    // The last monitor is reachable by scrolling.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByTestId(`monitor-row-${monitors[MONITORS - 1]!.id}`).waitFor();
  });

  it('filters as you type', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByLabel('Search monitors').fill('job 29');
    await expect.poll(() => page.locator('tr[data-testid^="monitor-row-"]').count()).toBe(10);
    // The address shows the search once typing pauses (not on every keystroke), so it can be bookmarked.
    await expect.poll(() => page.url()).toContain('#/monitors?q=job+29');
    await page.getByLabel('Search monitors').fill('');
    await page.getByTestId(`monitor-row-${monitors[0]!.id}`).waitFor();
  });

  it('reads a monitor that pulsed alone and redraws its row alone', async () => {
    const target = monitors[2]!;
    const row = page.getByTestId(`monitor-row-${target.id}`);
    // Its last run's time (the <time> element's dateTime) changes with the pulse below.
    await page.evaluate(() => {
      const changed = new Set<string>();
      (window as unknown as { changedRows: Set<string> }).changedRows = changed;
      new MutationObserver((records) => {
        for (const record of records) {
          const node = record.target instanceof Element ? record.target : record.target.parentElement;
          const row = node?.closest('tr[data-testid^="monitor-row-"]');
          if (row) changed.add(row.getAttribute('data-testid')!);
          else if (record.type === 'childList') changed.add('(rows added or removed)');
        }
      }).observe(document.querySelector('tbody')!, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const listBefore = sent('/api/monitors');
    await fetch(`${agent.url}/api/pulse/${target.token}`);
    await expect.poll(() => sent(`/api/monitors/${target.id}`)).toBe(1);
    await expect.poll(() => page.evaluate(() => [...(window as unknown as { changedRows: Set<string> }).changedRows])).toContain(`monitor-row-${target.id}`);
    // The row's run history (its last duration) reloads too; nothing else does.
    await expect.poll(() => sent(`/api/monitors/${target.id}/pulses`)).toBeGreaterThanOrEqual(1);
    expect(await row.isVisible()).toBe(true);
    expect(sent('/api/monitors')).toBe(listBefore);
    expect(await page.evaluate(() => [...(window as unknown as { changedRows: Set<string> }).changedRows])).toEqual([`monitor-row-${target.id}`]);
  });

  it('redraws a monitor that failed in its place: no other row changes, not even an attribute', async () => {
    // A row further down: moved to the failed ones at the top, every row in between would shift (and get a new index).
    const target = monitors[9]!;
    await page.getByTestId(`monitor-row-${target.id}`).waitFor();
    await page.evaluate(() => {
      const touched = new Set<string>();
      (window as unknown as { touchedRows: Set<string> }).touchedRows = touched;
      new MutationObserver((records) => {
        for (const record of records) {
          const node = record.target instanceof Element ? record.target : record.target.parentElement;
          const row = node?.closest('tr');
          if (row && row.parentElement?.tagName === 'TBODY') touched.add(row.getAttribute('data-testid') ?? `(${row.className || 'row'})`);
          else if (record.type === 'childList') touched.add('(rows added or removed)');
        }
      }).observe(document.querySelector('tbody')!, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const rowsBefore = await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid')));
    await fetch(`${agent.url}/api/pulse/${target.token}/fail`);
    await page.getByTestId(`monitor-row-${target.id}`).locator('[data-status="failed"]').waitFor();
    // Whatever the update sets off lands first: the row's own reads, then two frames (the taller row measured).
    await expect.poll(() => sent(`/api/monitors/${target.id}/pulses`)).toBeGreaterThanOrEqual(1);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => [...(window as unknown as { touchedRows: Set<string> }).touchedRows])).toEqual([`monitor-row-${target.id}`]);
    expect(await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid')))).toEqual(rowsBefore);
  });

  it('drops a deleted monitor from the list without asking for it', async () => {
    const target = monitors[1]!;
    const detailBefore = sent(`/api/monitors/${target.id}`);
    expect((await agent.api(`/api/monitors/${target.id}`, { method: 'DELETE' })).status).toBe(204);
    await expect.poll(() => page.getByTestId(`monitor-row-${target.id}`).count()).toBe(0);
    expect(sent(`/api/monitors/${target.id}`)).toBe(detailBefore);
    expect(await page.locator('table').getAttribute('aria-rowcount')).toBe(String(MONITORS));
    expect(problems).toEqual([]);
  });
});
