import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, signedInDashboard } from './browser';
import type { TestAgent } from '../helpers/testAgent';

/*
 * A number typed wrong ("3-0", "1e", "9-9": a slip of the keyboard) is refused at its field in the
 * API's words, never read as an empty field: empty is "no limit" for a max run time and the
 * default (443, 14 days) for a certificate, so the form used to save something else than what
 * was on screen, and say nothing.
 */
describe.skipIf(chromiumMissing)('a number typed wrong', { timeout: 60_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let page: Page;
  let close: () => Promise<void>;
  const sent: string[] = [];

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'Europe/Paris'));
    page.on('request', (request) => {
      if (request.method() !== 'GET') sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
  }, 60_000);

  afterAll(async () => {
    await close?.();
  });

  /** Types into a field as a person does (a filled value would skip what the browser makes of the keys). */
  async function typeInto(label: string, text: string) {
    const field = page.getByLabel(label, { exact: true });
    await field.click();
    await field.press('ControlOrMeta+A');
    await field.press('Backspace');
    await page.keyboard.type(text);
  }

  it('is refused at the monitor form\'s max run time, grace and alert after, and nothing is made', async () => {
    await page.goto(`${agent.url}/#/monitors/new`);
    await page.getByRole('textbox', { name: 'Name' }).fill('nightly');
    await typeInto('Max run time (minutes)', '3-0');
    await page.getByText('The max run time must be an integer.').waitFor();
    await typeInto('Grace (minutes)', '1e');
    await page.getByText('The grace must be an integer.').waitFor();
    await typeInto('Alert after N failures', '2-');
    await page.getByText('The alert after field must be an integer.').waitFor();
    sent.length = 0;
    await page.getByRole('button', { name: 'Create monitor' }).click();
    // The first wrong field on screen takes the focus, so a keyboard user lands where to type.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('monitor-duration');
    await typeInto('Grace (minutes)', '30');
    await typeInto('Alert after N failures', '2');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('monitor-max_runtime');
    expect(await page.getByLabel('Max run time (minutes)', { exact: true }).inputValue()).toBe('3-0');
    expect(sent).toEqual([]);
    expect(await (await agent.api('/api/monitors')).json()).toEqual([]);
  });

  it('is refused at the certificate form\'s port, and no certificate on port 443 is added', async () => {
    await page.goto(`${agent.url}/#/certificates`);
    await page.getByLabel('Hostname', { exact: true }).fill('127.0.0.1');
    await typeInto('Port', '9-9');
    await page.getByText('The port field must be an integer.').waitFor();
    await typeInto('Warn (days left)', '3e');
    await page.getByText('The warn days field must be an integer.').waitFor();
    sent.length = 0;
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('cert-port');
    expect(sent).toEqual([]);
    expect(await (await agent.api('/api/ssl-certificates')).json()).toEqual([]);
  });

  it('is refused at a recurring maintenance window\'s minutes', async () => {
    await page.goto(`${agent.url}/#/maintenance`);
    await page.getByLabel('Kind', { exact: true }).selectOption('recurring');
    await page.getByLabel('Opens at (cron or calendar event)').fill('0 3 * * 0');
    await typeInto('Minutes', '6-0');
    await page.getByText('The duration field must be an integer.').waitFor();
    sent.length = 0;
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('mw-duration');
    expect(sent).toEqual([]);
    expect((await (await agent.api('/api/maintenance-windows')).json()).data).toEqual([]);
  });
});
