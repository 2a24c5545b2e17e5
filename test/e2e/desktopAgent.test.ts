import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * The dashboard's Settings inside the desktop app (a stand-in for the preload's bridge, since
 * Electron cannot run here): which agent the app shows, connecting to another, running it here.
 */
describe.skipIf(chromiumMissing)('settings: which agent the desktop app shows', { timeout: 60_000 }, () => {
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    agent = await startTestAgent({ rendererDir: builtRenderer() });
    browser = await sharedChromium();
    page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    problems = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    // What main/preload.ts exposes; connect answers as the main process does for these inputs.
    await page.addInitScript(
      ({ apiBase, token }) => {
        const calls: unknown[] = [];
        (window as unknown as { connectCalls: unknown[] }).connectCalls = calls;
        (window as unknown as { cronbeat: unknown }).cronbeat = {
          apiBase,
          token,
          platform: 'linux',
          onTrayAction: () => () => {},
          desktopAgent: {
            choice: async () => ({ mode: 'remote', remote: { url: 'https://cronbeat.example.com', access: 'full' } }),
            connect: async (url: string, key: string) => {
              calls.push({ url, key });
              return key === 'cb_ping'
                ? { ok: false, message: 'This key may not read the agent (a ping or badge key). Use a read-only or full key.' }
                : { ok: true, message: 'Connected (read-only key). Cronbeat restarts to show that agent.' };
            },
            runHere: () => calls.push('run here'),
          },
        };
      },
      { apiBase: agent.url, token: agent.token },
    );
    await page.goto(`${agent.url}/#/settings`);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
  });

  it('says which agent it shows, refuses a ping key in words, connects with a good one, and runs the agent here', async () => {
    const section = page.getByRole('region', { name: 'Which agent this app shows' });
    await expect.poll(() => section.innerText()).toContain('Connected to the agent at https://cronbeat.example.com (full key)');
    expect(await section.locator('#agent-url').inputValue()).toBe('https://cronbeat.example.com');

    await section.locator('#agent-key').fill('cb_ping');
    await section.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => section.getByRole('alert').innerText()).toContain('ping or badge key');
    await screenshot(page, 'settings-desktop-agent-800');

    await section.locator('#agent-url').fill('http://backup-box:8787');
    await section.locator('#agent-key').fill('cb_readonly');
    await section.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => section.getByRole('status').innerText()).toContain('Connected (read-only key)');
    await page.getByRole('button', { name: 'Run the agent here' }).click();

    const calls = await page.evaluate(() => (window as unknown as { connectCalls: unknown[] }).connectCalls);
    expect(calls).toEqual([{ url: 'https://cronbeat.example.com', key: 'cb_ping' }, { url: 'http://backup-box:8787', key: 'cb_readonly' }, 'run here']);
    expect(problems).toEqual([]);
  });
});
