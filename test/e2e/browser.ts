import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent } from '../helpers/testAgent';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = !existsSync(CHROMIUM);
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** The built dashboard; builds it once when `npm test` did not already. */
export function builtRenderer(): string {
  const dir = join(process.cwd(), 'dist', 'renderer');
  if (!existsSync(join(dir, 'index.html'))) {
    execFileSync(process.execPath, [join('node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'renderer/vite.config.mts', '--logLevel', 'warn'], {
      stdio: 'inherit',
    });
  }
  return dir;
}

/** Saves a screenshot for people to look at (not compared: the test asserts on the page). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * A real agent (its clock `clock`) serving the built dashboard, Chromium, and a page signed in
 * on the Overview as a viewer in `timezoneId`; `close` ends them all.
 */
export async function signedInDashboard(clock: () => number, timezoneId?: string) {
  const agent = await startTestAgent({ clock, rendererDir: builtRenderer() });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId, locale: 'en-GB' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(createSignInLink(agent.store, agent.url, clock()));
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { agent, page, close: async () => { await browser.close(); await agent.stop(); } };
}
