import { createInterface } from 'node:readline';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { spawnCli, tempFolder } from '../helpers/cli';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * An agent that stops answering without closing anything (a stopped process, a machine asleep,
 * a network path gone quiet) refuses no connection: every request just waits. The dashboard
 * used to show "Live" and its last data as current for as long as that lasted, with a page
 * opened meanwhile on "Loading…" for ever. The live stream hears from the agent every 15 s, so
 * a stream silent for longer says the agent is not answering, as a refused connection does.
 * The page's own clock is moved (Playwright's), the agent is stopped for real (SIGSTOP).
 */
describe.skipIf(chromiumMissing)('an agent that stops answering without closing', { timeout: 60_000 }, () => {
  let child: ChildProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    builtRenderer();
    child = spawnCli(['serve', '--port', '0', '--data-dir', tempFolder()]);
    const link = await new Promise<string>((done) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const signIn = /(http:\/\/\S+#\/sign-in\?code=\S+)/.exec(line);
        if (signIn) done(signIn[1]!);
      });
    });
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'Europe/Paris' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.clock.install();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      child.kill('SIGCONT');
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('says the agent is not answering once its stream goes silent, and goes back to Live when it answers again', async () => {
    await page.locator('.live-live').waitFor();
    const banner = page.getByTestId('agent-down');
    child.kill('SIGSTOP');
    try {
      // Longer than the agent's 15 s heartbeat, thrice: its stream says nothing any more.
      await page.clock.fastForward('00:50');
      await page.locator('.live').filter({ hasText: 'Reconnecting…' }).waitFor();
      expect(await banner.count()).toBe(0);
      // Nothing answers the check the dashboard makes then either.
      await page.clock.fastForward('00:15');
      await banner.waitFor();
      expect(await banner.textContent()).toMatch(/not answering since .*What you see is from .* and may be out of date/);
      await screenshot(page, 'frozen-agent');
    } finally {
      child.kill('SIGCONT');
    }
    await banner.waitFor({ state: 'detached', timeout: 20_000 });
    await page.locator('.live-live').waitFor({ timeout: 20_000 });
  });
});
