import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, signedInDashboard } from './browser';

/*
 * A window added or removed elsewhere (`cronbeat maintenance add`, another tab, a script) shows on
 * an open Maintenance screen at once, as every other change does, not at its next minute's read;
 * a Remove pressed on a window already gone would only earn a 404.
 */
describe.skipIf(chromiumMissing)('maintenance windows changed elsewhere', { timeout: 30_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now));
  }, 60_000);
  afterAll(() => close());

  it('lists a window added elsewhere and drops one removed elsewhere, live', async () => {
    await page.goto(`${agent.url}/#/maintenance`);
    await page.getByText('No maintenance windows').waitFor();
    const made = await (await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'weekly reboot', schedule: '0 3 * * 0', timezone: 'UTC', duration: 60 } })).json();
    const row = page.getByRole('row').filter({ hasText: 'weekly reboot' });
    await row.waitFor({ timeout: 5_000 });
    expect((await agent.api(`/api/maintenance-windows/${made.id}`, { method: 'PATCH', json: { name: 'monthly reboot' } })).status).toBe(200);
    await page.getByRole('row').filter({ hasText: 'monthly reboot' }).waitFor({ timeout: 5_000 });
    expect((await agent.api(`/api/maintenance-windows/${made.id}`, { method: 'DELETE' })).status).toBe(204);
    await page.getByText('No maintenance windows').waitFor({ timeout: 5_000 });
  });
});
