import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium } from './browser';

/*
 * The dashboard opened from another machine over plain http (http://192.168.1.10:8787, once the
 * agent is let out of 127.0.0.1) is not a secure context: the browser gives it no
 * navigator.clipboard. Copy then did nothing a user could see (it selected the line, silently);
 * it copies the older way, and says so, as it does on this machine.
 */
const address = Object.values(networkInterfaces())
  .flat()
  .find((each) => each && each.family === 'IPv4' && !each.internal)?.address;

describe.skipIf(chromiumMissing || !address)('Copy on a dashboard opened from another machine', { timeout: 60_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  let base = '';

  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer(), host: '0.0.0.0' });
    base = `http://${address}:${new URL(agent.url).port}`;
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.goto(createSignInLink(agent.store, base, now));
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  it('copies the pulse URL and says Copied, though the page has no clipboard API', async () => {
    expect(await page.evaluate(() => [window.isSecureContext, 'clipboard' in navigator])).toEqual([false, false]);
    const made = await fetch(`${base}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 }),
    });
    expect(made.status).toBe(201);
    const monitor = await made.json();
    await page.goto(`${base}/#/monitors/${monitor.id}`);
    const copy = page.getByRole('button', { name: 'Copy Pulse URL' });
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    // What was copied is what a paste gives.
    await page.getByRole('link', { name: 'Monitors', exact: true }).first().click();
    const search = page.getByRole('searchbox', { name: 'Search monitors' });
    await search.click();
    await page.keyboard.press('ControlOrMeta+V');
    expect(await search.inputValue()).toBe(monitor.pulse_url);
  });
});
