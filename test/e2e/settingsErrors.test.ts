import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { TestAgent } from '../helpers/testAgent';
import { chromiumMissing, signedInDashboard } from './browser';

/*
 * The Settings forms' refusals (the public URL, the watchdog's URL, a key's name) belong to their
 * field for a screen reader too: the field is marked invalid and described by the API's message,
 * as every other form's fields are (components/Field.tsx).
 */
describe.skipIf(chromiumMissing)('Settings: the API\'s message describes its field', { timeout: 30_000 }, () => {
  const now = Date.now();
  let agent: TestAgent;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ agent, page, close } = await signedInDashboard(() => now));
  }, 60_000);
  afterAll(() => close());

  /** The text of the elements the field's aria-describedby names. */
  const description = (field: Locator) =>
    field.evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );

  it('ties each refusal to its field', async () => {
    await page.goto(`${agent.url}/#/settings`);
    const publicUrl = page.getByRole('textbox', { name: 'Public URL' });
    await publicUrl.fill('ftp://cron.example.com');
    await page.getByRole('form', { name: 'Public URL' }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => description(publicUrl)).toMatch(/^The public_url field must /);
    expect(await publicUrl.getAttribute('aria-invalid')).toBe('true');

    const watchdog = page.getByRole('textbox', { name: 'Ping URL' });
    await watchdog.fill('not a url');
    await page.getByRole('form', { name: 'Watchdog URL' }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => description(watchdog)).toMatch(/^The watchdog_url field must be an absolute http/);

    const keyName = page.getByRole('textbox', { name: 'Name', exact: true });
    await keyName.fill('x'.repeat(101));
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => description(keyName)).toBe('The name field must not be greater than 100 characters.');
    expect(await keyName.getAttribute('aria-invalid')).toBe('true');
  });
});
