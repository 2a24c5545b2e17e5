import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { Receiver } from '../helpers/receiver';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

async function expectNoErrorState(page: Page): Promise<void> {
  expect(await page.locator('[data-testid="error-state"]').allInnerTexts(), 'error states on the page').toEqual([]);
}

/*
 * Channels in real headless Chromium: add a webhook channel with the form, send a test and see it
 * arrive at a real receiver, route a monitor to it, and see where its failure was delivered.
 */
describe.skipIf(chromiumMissing)('channels end to end', { timeout: 30_000 }, () => {
  let now = Date.now();
  let agent: TestAgent;
  let browser: Browser;
  let page: Page;
  let hook: Receiver;

  beforeAll(async () => {
    hook = await new Receiver([{ status: 200, body: 'hook says hi' }]).start();
    agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });
    browser = await sharedChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.goto(createSignInLink(agent.store, agent.url, now));
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
    await hook?.stop();
  });

  let secret = '';

  it('adds a webhook channel with a form that checks as you type, and shows its secret once', async () => {
    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    await page.getByText('No channels yet').waitFor();
    // This agent shows no popups (no notifier, as a headless one): the page promises none.
    await page.getByText('Alerts show only in this dashboard (this agent has no desktop for popups).').waitFor();
    expect(await page.getByText('desktop popups only').count()).toBe(0);
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('form', { name: 'Add webhook channel' });
    await form.getByLabel('Name').fill('Ops hook');
    await form.getByLabel('URL').fill('ftp://nope');
    await form.getByText('The url field must be an http or https URL.').waitFor();
    await form.getByLabel('URL').fill(`${hook.url}/cronbeat`);
    await form.getByLabel('Quiet from').fill('25:00');
    await form.getByText('The quiet hours start field must be a time such as 22:00.').waitFor();
    await form.getByLabel('Quiet from').fill('');
    await form.getByRole('button', { name: 'Add channel' }).click();
    const notice = page.getByTestId('generated-secret');
    await notice.waitFor();
    secret = (await notice.locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.getByTestId('channel').filter({ hasText: 'Ops hook' }).waitFor();
    await expectNoErrorState(page);
    await screenshot(page, 'channels');
  });

  it('sends a test and shows the receiver\'s answer; the receiver got it, signed', async () => {
    await page.getByRole('button', { name: 'Send test' }).click();
    const answer = page.getByTestId('test-answer');
    await answer.waitFor();
    expect(await answer.textContent()).toContain('Delivered');
    expect(await answer.textContent()).toContain('hook says hi');
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request.url).toBe('/cronbeat');
    expect(request.headers['x-cronbeat-signature']).toBe(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
    expect(JSON.parse(request.body)).toMatchObject({ event: 'test', title: 'Cronbeat test message' });
    await screenshot(page, 'channel-test-answer');
  });

  it('sets reminders on the channel: checked as you type, shown in the list', async () => {
    const row = page.getByTestId('channel').filter({ hasText: 'Ops hook' });
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit Ops hook' });
    await form.getByLabel('Remind every (hours, optional)').fill('0');
    await form.getByText('The remind every hours field must be at least 1.').waitFor();
    await form.getByLabel('Remind every (hours, optional)').fill('4');
    await page.setViewportSize({ width: 800, height: 600 });
    await screenshot(page, 'channel-reminders-form-800');
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.getByRole('button', { name: 'Save' }).click();
    await row.getByText('Reminds every 4 h while a monitor stays failed').waitFor();
    expect((await (await agent.api('/api/channels')).json())[0].remind_every_hours).toBe(4);
  });

  it('turns masking of secrets in job output off and on again from the channel form', async () => {
    const row = page.getByTestId('channel').filter({ hasText: 'Ops hook' });
    const setMasking = async (on: boolean) => {
      await row.getByRole('button', { name: 'Edit' }).click();
      const form = page.getByRole('form', { name: 'Edit Ops hook' });
      const box = form.getByLabel('Mask secrets in job output');
      expect(await box.isChecked()).toBe(!on);
      await box.setChecked(on);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached' });
      return (await (await agent.api('/api/channels')).json())[0].settings;
    };
    expect((await (await agent.api('/api/channels')).json())[0].settings).not.toHaveProperty('mask_secrets');
    expect((await setMasking(false)).mask_secrets).toBe(false);
    expect(await setMasking(true)).not.toHaveProperty('mask_secrets');
  });

  it('routes a monitor to chosen channels from its page, and shows where its failure went', async () => {
    const monitor = await (
      await agent.api('/api/monitors', { method: 'POST', json: { name: 'Routed job', timezone: 'UTC', schedule: '* * * * *', duration: 1 } })
    ).json();
    await page.goto(`${agent.url}/#/monitors/${monitor.id}`);
    const picker = page.getByTestId('channel-picker');
    await picker.getByLabel('Only these:').check();
    await picker.getByLabel('Ops hook').check();
    await picker.getByRole('button', { name: 'Save channels' }).click();
    await picker.getByText('Saved.').waitFor();
    const channelId = (await (await agent.api('/api/channels')).json())[0].id;
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).channel_ids).toEqual([channelId]);

    now += 5 * 60_000;
    await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
    await hook.received(2);
    await page.goto(`${agent.url}/#/notifications`);
    const delivered = page.getByTestId('deliveries').first();
    await expect.poll(() => delivered.textContent()).toContain('Ops hook (Webhook): sent');
    await expectNoErrorState(page);
    await screenshot(page, 'notification-deliveries');
  });
});
