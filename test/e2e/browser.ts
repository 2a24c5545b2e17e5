import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent } from '../helpers/testAgent';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = !existsSync(CHROMIUM);
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

/** A Chromium of its own, for a script (the bench, the README's picture): closing it ends it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

// One Chromium per test process, started by the first file that asks: a launch is about a second of CPU, and
// some forty files each launched their own. It ends with the process (its pipe closes).
let shared: Promise<Browser> | undefined;
// Sessions open now: what each file made, closed by its own close().
const openSessions = new Set<Set<BrowserContext>>();

/**
 * For a test file: the process's Chromium, as a Browser whose close() closes only the contexts
 * made through it (each a fresh profile: no cookie, storage or cache of another file), and, when no
 * other session is open, any the file made through `context.browser()`. A Chromium that crashed
 * or was closed is started again.
 */
export async function sharedChromium(): Promise<Browser> {
  if (!shared || !(await shared.catch(() => undefined))?.isConnected()) shared = launchChromium();
  const browser = await shared;
  const mine = new Set<BrowserContext>();
  openSessions.add(mine);
  const own = <T extends BrowserContext>(context: T): T => {
    mine.add(context);
    context.once('close', () => mine.delete(context));
    return context;
  };
  return new Proxy(browser, {
    get(target, property, receiver) {
      if (property === 'newContext') return async (...options: Parameters<Browser['newContext']>) => own(await target.newContext(...options));
      if (property === 'newPage') {
        return async (...options: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...options);
          own(page.context());
          return page;
        };
      }
      if (property === 'close') {
        return async () => {
          openSessions.delete(mine);
          const strays = openSessions.size === 0 ? target.contexts() : [];
          await Promise.all([...mine, ...strays].map((context) => context.close().catch(() => undefined)));
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
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
  const browser = await sharedChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId, locale: 'en-GB' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(createSignInLink(agent.store, agent.url, clock()));
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { agent, page, close: async () => { await browser.close(); await agent.stop(); } };
}
