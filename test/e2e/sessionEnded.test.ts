import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { builtRenderer, chromiumMissing, sharedChromium, signedInDashboard } from './browser';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A session that ends under an open page (revoked from another tab, by `cronbeat token revoke`)
 * asks for a sign-in on the spot; signing in again goes back to the page it was on, whose address
 * the sign-in screen kept, rather than to the Overview, as a web app's login does with its
 * "next" page.
 */
describe.skipIf(chromiumMissing)('a session that ends under an open page', { timeout: 60_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now, 'Europe/Paris'));
  }, 60_000);

  afterAll(async () => {
    await close?.();
  });

  it('asks for a sign-in, then shows the page it was on', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'Backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } })).json();
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    await page.getByRole('heading', { name: 'Backup', level: 1 }).waitFor();
    const keys = (await (await agent.api('/api/keys')).json()) as { id: number; name: string }[];
    const session = keys.find((key) => key.name === 'dashboard')!;
    expect((await agent.api(`/api/keys/${session.id}`, { method: 'DELETE' })).status).toBe(204);
    await page.getByText('Your session has ended').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).hash).toBe(`#/monitors/${monitor.id}`);
    // Sent empty, the field says what to do in plain words (no Markdown backticks on a web page).
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Paste an API token' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Paste an API token' }).textContent()).not.toContain('`');
    await page.getByLabel('API token').fill(agent.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Backup', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/monitors/${monitor.id}`);
  });

  it('asks at once when the key is revoked under a page that only listens, not at its next refresh', async () => {
    const browser = await sharedChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'Europe/Paris' });
      context.setDefaultTimeout(10_000);
      const listening = await context.newPage();
      // The page's clock stands still from here on, but for the reconnection moved on below: no refresh of its own comes.
      await listening.clock.install();
      await listening.goto(createSignInLink(agent.store, agent.url, now));
      await listening.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await listening.locator('.live-live').waitFor();
      await listening.clock.pauseAt(Date.now() + 1_000);
      const keys = (await (await agent.api('/api/keys')).json()) as { id: number; name: string }[];
      for (const key of keys.filter((each) => each.name === 'dashboard')) await agent.api(`/api/keys/${key.id}`, { method: 'DELETE' });
      // The agent ends the stream of a revoked key at once; the page connects again a second later and is refused.
      await listening.locator('.live').filter({ hasText: 'Reconnecting…' }).waitFor();
      await listening.clock.runFor(2_000);
      await listening.getByText('Your session has ended').waitFor();
    } finally {
      await browser.close();
    }
  });

  it('says so when signing out could not end the session on the agent (gone meanwhile), instead of passing it for done', async () => {
    const gone = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    const context = await page.context().browser()!.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    try {
      context.setDefaultTimeout(10_000);
      const tab = await context.newPage();
      await tab.goto(createSignInLink(gone.store, gone.url, now));
      await tab.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await gone.stop();
      await tab.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await tab.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
      const notice = tab.getByRole('alert').filter({ hasText: 'Signed out in this browser' });
      await notice.waitFor();
      expect(await notice.textContent()).toBe(
        'Signed out in this browser, but the agent did not end the session: Cannot reach the Cronbeat agent. Is it running? ' +
          'Once it is back, sign in and revoke the older keys named “dashboard” in Settings; unused, a session ends by itself after 30 days.',
      );
    } finally {
      await context.close();
      await gone.stop().catch(() => undefined);
    }
  });

  it('is one sign-in for every tab of a browser, as a cookie would be: signing out in one tab signs the others out and ends every session they held', async () => {
    const context = await page.context().browser()!.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    try {
      context.setDefaultTimeout(10_000);
      const first = await context.newPage();
      await first.goto(createSignInLink(agent.store, agent.url, now));
      await first.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      const firstToken = await first.evaluate(() => localStorage.getItem('cronbeat.token'));
      const second = await context.newPage();
      await second.goto(createSignInLink(agent.store, agent.url, now));
      await second.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      const secondToken = await second.evaluate(() => localStorage.getItem('cronbeat.token'));
      expect(secondToken).not.toBe(firstToken);
      await first.goto(`${agent.url}/#/settings`);
      await first.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await first.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
      // The other tab, still open on the Overview, asks for a sign-in at once.
      await second.getByText('Your session has ended').waitFor();
      for (const token of [firstToken, secondToken]) {
        const response = await fetch(`${agent.url}/api/session`, { headers: { Authorization: `Bearer ${token}` } });
        expect(response.status, 'a session of a tab signed out').toBe(401);
      }
    } finally {
      await context.close();
    }
  });
});
