import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * A server's watchers on its page. Each watcher is quiet on its own and the server while any of
 * them is, so one stopped for good keeps its server quiet until it is forgotten: the dashboard
 * lists them and forgets one, or an admin who uses only the dashboard has no way out of "quiet".
 */

/** Sideways scrolling of the page, tables wider than their card, cells cut: what an 800 px window must not have. */
function clippedParts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`page scrolls sideways by ${root.scrollWidth - root.clientWidth}px`);
    for (const wrap of document.querySelectorAll<HTMLElement>('.table-wrap')) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) found.push(`table wider than its card by ${wrap.scrollWidth - wrap.clientWidth}px`);
    }
    for (const cell of document.querySelectorAll<HTMLElement>('td, th')) {
      if (cell.scrollWidth > cell.clientWidth + 1) found.push(`cell "${cell.textContent?.slice(0, 30)}" cut by ${cell.scrollWidth - cell.clientWidth}px`);
    }
    return found;
  });
}

describe.skipIf(chromiumMissing)("a server's watchers in the dashboard", { timeout: 60_000 }, () => {
  // Five minutes behind the browser's clock, which the page's "5 min ago" reads: the test moves the agent's to it.
  let now = Date.now() - 5 * 60_000;
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'UTC'));
  }, 60_000);
  afterAll(() => close());

  const addServer = async (name: string, identifier: string) =>
    (await (await agent.api('/api/servers', { method: 'POST', json: { name, ip_address: '10.0.0.7', identifier } })).json()).id as number;
  const report = async (identifier: string, watcher: string | undefined, interval: number, jobs: number) =>
    expect((await agent.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: identifier, interval_seconds: interval, jobs, watcher } })).status).toBe(200);
  const quietFlag = async (id: number) => (await (await agent.api(`/api/servers/${id}`)).json()).quiet as boolean;
  const row = (name: string) => page.getByTestId('server-watcher').filter({ hasText: name });

  it('shows the watcher that went quiet, and Forget takes it away and the server out of quiet', async () => {
    const id = await addServer('Web box with a rather long name for a small window', 'web-7');
    await report('web-7', 'crontab-watch-files-3f9a1c2e7b40', 60, 12);
    await report('web-7', 'timers-watch-system', 3600, 4);
    await page.goto(`${agent.url}/#/servers/${id}`);
    await expect.poll(() => page.getByTestId('server-watcher').count()).toBe(2);
    expect(await row('timers-watch-system').textContent()).toContain('every 1 h');
    expect(await page.getByTestId('server-watchers').getByText('Quiet', { exact: true }).count()).toBe(0);

    // The crontab watcher dies; the timers watcher is hourly. The loop steps at the crontab watcher's quiet moment.
    now += 5 * 60_000;
    await report('web-7', 'timers-watch-system', 3600, 4);
    await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
    // Seen live, without a reload: the step's server.changed reloads the watchers with the server.
    await row('crontab-watch-files-3f9a1c2e7b40').getByText('Quiet', { exact: true }).waitFor();
    await row('timers-watch-system').getByText('Reporting', { exact: true }).waitFor();
    expect(await row('crontab-watch-files-3f9a1c2e7b40').textContent()).toContain('5 min ago');
    await page.getByTestId('last-report').getByText('Quiet').waitFor();
    expect(await quietFlag(id)).toBe(true);

    for (const [width, height] of [[800, 600], [1280, 800]] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `server-watchers-quiet-${width}x${height}`);
      expect(await clippedParts(page), `${width}×${height}`).toEqual([]);
    }

    await page.getByRole('button', { name: 'Forget watcher crontab-watch-files-3f9a1c2e7b40' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Forget the watcher “crontab-watch-files-3f9a1c2e7b40”?').waitFor();
    await screenshot(page, 'server-watchers-forget-confirm-1280x800');
    await dialog.getByRole('button', { name: 'Forget watcher', exact: true }).click();
    await expect.poll(() => page.getByTestId('server-watcher').count()).toBe(1);
    await row('timers-watch-system').waitFor();
    await expect.poll(() => page.getByTestId('last-report').getByText('Quiet').count()).toBe(0);
    expect(await quietFlag(id)).toBe(false);
    expect(agent.store.serverReports.watchers(id).map((w) => w.watcher)).toEqual(['timers-watch-system']);
  });

  it('names the unnamed watcher of an older cronbeat, and drops a watcher forgotten elsewhere as it happens', async () => {
    const id = await addServer('Old box', 'old-8');
    await report('old-8', undefined, 60, 3);
    await page.goto(`${agent.url}/#/servers/${id}`);
    await row('unnamed (older cronbeat)').waitFor();
    await page.getByRole('button', { name: 'Forget watcher unnamed (older cronbeat)' }).click();
    await page.getByRole('dialog').getByText('Forget the unnamed watcher (older cronbeat)?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    // Forgotten by a script (or another tab): the page follows the live event.
    expect((await agent.api(`/api/servers/${id}/watchers?watcher=`, { method: 'DELETE' })).status).toBe(204);
    await page.getByTestId('server-watchers').getByText('No watcher has reported yet').waitFor();
    expect(await page.getByTestId('server-watcher').count()).toBe(0);
  });
});
