import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { Receiver } from '../helpers/receiver';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * Secrets on a change of destination, in the dashboard: pointing a Telegram channel at another Bot API server asks
 * for its token again, next to the token's field; once given, the channel sends there.
 */
describe.skipIf(chromiumMissing)('changing where a channel sends, in the dashboard', { timeout: 30_000 }, () => {
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    agent = await startTestAgent({ rendererDir: builtRenderer(), channels: { timeoutMs: 2000 } });
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, Date.now()));
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  it('asks for the bot token again when the Bot API address changes, and sends there once given', async () => {
    const home = await new Receiver([{ status: 200, body: '{"ok":true}' }]).start();
    const elsewhere = await new Receiver([{ status: 200, body: '{"ok":true}' }]).start();
    receivers.push(home, elsewhere);
    const made = await agent.api('/api/channels', { method: 'POST', json: { name: 'On-call chat', kind: 'telegram', settings: { bot_token: '123:home-token', chat_id: 42, api_url: home.url } } });
    expect(made.status).toBe(201);

    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    const card = page.getByTestId('channel').filter({ hasText: 'On-call chat' });
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit On-call chat' });
    await form.getByLabel('Bot API address').fill(elsewhere.url);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('The bot token field is required when the api url changes').waitFor();
    await screenshot(page, 'channel-destination-asks-for-secret-1280');
    expect(await form.getByLabel('Bot token').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Bot token').fill('456:new-token');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Send test' }).click();
    await elsewhere.received(1);
    expect(elsewhere.requests[0].url).toBe('/bot456:new-token/sendMessage');
    expect(home.requests).toEqual([]);
  });
});
