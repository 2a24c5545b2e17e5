import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, screenshot, signedInDashboard } from './browser';

/*
 * Reports in the dashboard, in real headless Chromium: the channel form picks a frequency, a time
 * and a zone (checked as you type by the API's own rule), the card says when reports come, and
 * "Preview report" shows the report the agent would send now.
 */
describe.skipIf(chromiumMissing)('channel reports end to end', { timeout: 30_000 }, () => {
  const now = Date.parse('2026-11-27T10:00:00Z');
  let dashboard: Awaited<ReturnType<typeof signedInDashboard>>;

  beforeAll(async () => {
    dashboard = await signedInDashboard(() => now, 'Europe/Berlin');
    const made = await dashboard.agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'Europe/Berlin', schedule: '0 3 * * *', duration: 5 } });
    const monitor = await made.json();
    dashboard.agent.store.db.prepare('UPDATE monitors SET created_at = ? WHERE id = ?').run(now - 7 * 86_400_000, monitor.id);
  }, 60_000);
  afterAll(() => dashboard?.close());

  it('picks a daily report at a time in a zone, says so on the card, and previews it', async () => {
    const { page } = dashboard;
    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByLabel('Kind').selectOption('ntfy');
    const form = page.getByRole('form', { name: 'Add ntfy channel' });
    await form.getByLabel('Name').fill('Ops phone');
    await form.getByLabel('Topic').fill('ops');
    await form.getByLabel('How often').selectOption('daily');
    await form.getByLabel('At', { exact: true }).fill('25:00');
    await form.getByText('The report time field must be a time such as 08:00.').waitFor();
    await form.getByLabel('At', { exact: true }).fill('7:30');
    await form.getByLabel('Report zone').fill('Europe/Berlin');
    await screenshot(page, 'channel-report-form');
    await form.getByRole('button', { name: 'Add channel' }).click();
    const card = page.getByTestId('channel').filter({ hasText: 'Ops phone' });
    await card.getByText('Daily report at 07:30 (Europe/Berlin)').waitFor();

    await card.getByRole('button', { name: 'Preview report' }).click();
    const preview = card.getByTestId('report-preview');
    await preview.waitFor();
    const text = (await preview.textContent()) ?? '';
    expect(text).toContain('Daily report: 1 monitor, none failing now');
    expect(text).toContain('Thu 26 Nov 07:30 – Fri 27 Nov 07:30 Europe/Berlin');
    expect(text).toContain('nightly-backup: 0 runs, 0 failed, 0 missed, 100.00% up');
    await screenshot(page, 'channel-report-preview-1280');
    await page.setViewportSize({ width: 800, height: 600 });
    await screenshot(page, 'channel-report-preview-800');
    await card.getByRole('button', { name: 'Hide report' }).click();
    await preview.waitFor({ state: 'detached' });
  });
});
