import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, sharedChromium, screenshot, signedInDashboard } from './browser';

/*
 * A leaked pulse token undone from the monitor's page in real headless Chromium: "New pulse
 * token…" asks first, Cancel changes nothing, the confirm shows the new token at once and the
 * agent refuses the old one. A read-only key's dashboard (a wall display) shows no token at all.
 */
describe.skipIf(chromiumMissing)('a new pulse token from the monitor page', { timeout: 30_000 }, () => {
  const now = Date.parse('2026-11-27T10:00:00Z');
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now));
  }, 60_000);
  afterAll(() => close());

  it('asks first, then shows the new token, and the old one is refused', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    const pulseUrl = page.getByLabel('Pulse URL', { exact: true });
    expect(await pulseUrl.inputValue()).toBe(`${agent.url}/api/pulse/${monitor.token}`);

    await page.getByRole('button', { name: 'New pulse token…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The current token stops working at once').waitFor();
    await screenshot(page, 'monitor-new-token-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(agent.store.monitors.find(1, monitor.id)!.token).toBe(monitor.token);

    await page.getByRole('button', { name: 'New pulse token…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make a new token' }).click();
    const rotated = () => agent.store.monitors.find(1, monitor.id)!.token;
    await page.waitForFunction(
      ([old]) => {
        const input = document.querySelector<HTMLInputElement>('#copy-pulse-url');
        return input !== null && !input.value.endsWith(old);
      },
      [monitor.token],
    );
    expect(rotated()).not.toBe(monitor.token);
    expect(await pulseUrl.inputValue()).toBe(`${agent.url}/api/pulse/${rotated()}`);
    expect(await page.getByLabel('cronbeat run', { exact: true }).inputValue()).toContain(`run ${rotated()} `);
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}`)).status).toBe(404);
    expect((await fetch(`${agent.url}/api/pulse/${rotated()}`)).status).toBe(200);
    await page.getByText('new pulse token (the old one is refused)').waitFor();
    await screenshot(page, 'monitor-new-token-done');
  });

  it('shows a read-only key no token, and no button to make one', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'wall-display-job', timezone: 'UTC', schedule: '0 4 * * *', duration: 5 } })).json();
    const readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now }).token;
    const browser = await sharedChromium();
    try {
      const wall = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
      await wall.goto(`${agent.url}/#/sign-in`);
      await wall.getByLabel(/token/i).first().fill(readOnly);
      await wall.getByRole('button', { name: /sign in/i }).click();
      await wall.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await wall.goto(`${agent.url}/#/monitors/${monitor.id}`);
      await wall.getByTestId('pulse-token-hidden').waitFor();
      expect(await wall.content()).not.toContain(monitor.token);
      expect(await wall.getByRole('button', { name: 'New pulse token…' }).count()).toBe(0);
      await screenshot(wall, 'monitor-read-only-key');
    } finally {
      await browser.close();
    }
  });
});
