/**
 * Makes the README's picture of the monitors screen: `npx tsx test/e2e/readme-screenshot.ts`.
 * A real agent with a few realistic monitors (one failed, one running), the real dashboard, and
 * headless Chromium; writes renderer/screenshot-monitors.png.
 */
import { join } from 'node:path';
import { createSignInLink } from '../helpers/signIn';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent } from '../helpers/testAgent';
import { builtRenderer, launchChromium } from './browser';

async function main(): Promise<void> {
  const realNow = Date.now();
  let now = realNow - 3 * 3_600_000;
  const agent = await startTestAgent({ clock: () => now, rendererDir: builtRenderer() });

  const monitors = [
    { name: 'Nightly database backup', schedule: '0 2 * * *', timezone: 'Europe/Paris', duration: 60, runs: [312_000, 298_000, 305_500] },
    { name: 'Certificate renewal (certbot)', schedule: '17 */12 * * *', timezone: 'UTC', duration: 30, runs: [8_400, 9_100] },
    { name: 'Invoice export to S3', schedule: '*/15 * * * *', timezone: 'America/New_York', duration: 10, runs: [] },
    { name: 'Log rotation', schedule: '0 * * * *', timezone: 'Europe/London', duration: 15, runs: [1_200, 950, 1_020] },
    { name: 'Search index rebuild', schedule: '30 3 * * 1', timezone: 'Asia/Tokyo', duration: 120, runs: [] },
  ];

  const created: Record<string, { id: number; token: string; pulse_url: string }> = {};
  for (const monitor of monitors) {
    const response = await agent.api('/api/monitors', { method: 'POST', json: { ...monitor, runs: undefined } });
    created[monitor.name] = await response.json();
  }

  async function pulse(name: string, suffix: string) {
    await fetch(`${created[name]!.pulse_url}${suffix}`, { method: 'POST', body: 'ok' });
  }

  // The export misses its runs and fails; the rest report timed runs up to now.
  now = realNow - 2 * 60_000;
  await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
  for (const monitor of monitors) {
    for (const [i, duration] of monitor.runs.entries()) {
      now = realNow - (monitor.runs.length - i) * 600_000;
      await pulse(monitor.name, `/start?rid=r${i}`);
      now += duration;
      await pulse(monitor.name, `?rid=r${i}`);
    }
  }
  now = realNow - 90_000;
  await pulse('Search index rebuild', '/start?rid=now');
  now = realNow;

  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 560 }, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: 'Europe/Paris' });
  await page.goto(createSignInLink(agent.store, agent.url, now));
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.goto(`${agent.url}/#/monitors`);
  await page.locator('[data-status="failed"]').first().waitFor();
  await page.waitForTimeout(500); // the last-duration cells load after the table
  await page.screenshot({ path: join('renderer', 'screenshot-monitors.png') });
  await browser.close();
  await agent.stop();
  console.log('wrote renderer/screenshot-monitors.png');
}

void main();
