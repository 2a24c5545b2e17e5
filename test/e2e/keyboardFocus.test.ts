import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, signedInDashboard } from './browser';

/*
 * A keyboard user who presses Pause, a snooze or Resume on a monitor's page stays where they
 * were: the button that replaces the one pressed has the focus, not the top of the page.
 */
describe.skipIf(chromiumMissing)('focus after pausing and resuming from the keyboard', { timeout: 30_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now));
  }, 60_000);
  afterAll(() => close());

  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? null);

  it('moves the focus to Resume after Pause or a snooze, and back to Pause after Resume', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    await page.getByRole('button', { name: 'Pause' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    await expect.poll(focused).toBe('Resume');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Snooze 1 h' }).waitFor();
    await expect.poll(focused).toBe('Pause');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Snooze 1 h');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    await expect.poll(focused).toBe('Resume');
  });

  it('keeps the focus on Send test while the channel is tried and after', async () => {
    const created = await agent.api('/api/channels', { method: 'POST', json: { name: 'nowhere', kind: 'webhook', settings: { url: 'http://127.0.0.1:1/hook' } } });
    expect(created.status).toBe(201);
    await page.goto(`${agent.url}/#/channels`);
    await page.getByRole('button', { name: 'Send test' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.test-answer').waitFor();
    await expect.poll(focused).toBe('Send test');
  });

  it('keeps the focus on Check now while the certificate is checked and after', async () => {
    // Nothing listens on port 1: the check ends at once, unreachable.
    const created = await agent.api('/api/ssl-certificates', { method: 'POST', json: { hostname: 'localhost', port: 1 } });
    expect(created.status).toBe(201);
    await page.goto(`${agent.url}/#/certificates`);
    const check = page.getByRole('button', { name: 'Check now' });
    await check.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Checking…' }).waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('Check now');
  });

  it('says what a confirmed action is doing while the agent works on it, not "Deleting…" for a new token', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'leaky', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    // The request is held on its way to the agent, so the dialog shows what it says meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/monitors/${monitor.id}/token`, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'New pulse token…' }).click();
    await page.getByRole('button', { name: 'Make a new token' }).click();
    const working = page.getByRole('dialog').locator('.button-danger');
    await expect.poll(() => working.textContent()).toBe('Making a new token…');
    release();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.unroute(`**/api/monitors/${monitor.id}/token`);
  });
});
