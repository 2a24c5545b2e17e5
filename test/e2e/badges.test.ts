import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { chromiumMissing, sharedChromium, screenshot } from './browser';

let agent: TestAgent;
let browser: Browser;
let badgeKey: string;
let ping: string;

beforeAll(async () => {
  agent = await startTestAgent();
  badgeKey = agent.store.apiTokens.create({ companyId: 1, name: 'readme', scope: 'badge', now: Date.now() }).token;
  ping = agent.store.apiTokens.create({ companyId: 1, name: 'ping', scope: 'ping', now: Date.now() }).token;
  if (!chromiumMissing) browser = await sharedChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await agent.stop();
});

const line = (slug: string, path: string, extra = '') =>
  fetch(`${agent.url}/api/pulse/key/${ping}/${slug}${path}?create=1&schedule=0+3+*+*+*&server=web-01${extra}`);
const badge = (path: string, key = badgeKey) => fetch(`${agent.url}/api/badges/${key}/${path}`);

describe('status badges', () => {
  it('a monitor\'s SVG badge says up or down, is short-cached, and its name is escaped, never markup', async () => {
    await line('backup', '/0', `&name=${encodeURIComponent('<script>alert(1)</script> & "backup"')}`);
    const response = await badge('monitors/backup.svg');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const svg = await response.text();
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;backup&quot;');
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg);
    expect(parsed.svg['@_aria-label']).toBe('<script>alert(1)</script> & "backup": up');

    const byId = agent.store.monitorLines.findBySlug(1, 'backup')!.id;
    expect((await (await badge(`monitors/${byId}.svg`)).text())).toBe(svg);
    await line('backup', '/1');
    expect(await (await badge('monitors/backup.svg')).text()).toContain('>down<');
  });

  it('answers under any Host name, as pulses do: the badge key in the URL is the secret', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${agent.url}/api/badges/${badgeKey}/monitors/backup.svg`);
      request(url, { headers: { Host: 'status.example.com' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
  });

  it('gives shields.io endpoint JSON per monitor and per tag', async () => {
    await line('rotate', '/0');
    expect(await (await badge('monitors/rotate.json')).json()).toEqual({ schemaVersion: 1, label: 'rotate', message: 'up', color: 'brightgreen', cacheSeconds: 300 });
    // backup (failed above) shares the server tag: the tag is down.
    expect(await (await badge('tags/server:web-01.json')).json()).toMatchObject({ label: 'server:web-01', message: 'down', color: 'red' });
  });

  it('answers 404 alike for an unknown key, monitor or tag, and 403 for a key that can do more', async () => {
    expect((await badge('monitors/backup.svg', 'cb_wrong')).status).toBe(404);
    expect((await badge('monitors/nope.svg')).status).toBe(404);
    expect((await badge('tags/nope.svg')).status).toBe(404);
    expect((await badge('monitors/backup.svg', agent.token)).status).toBe(403);
    expect((await badge('monitors/backup.svg', ping)).status).toBe(403);
    agent.store.companies.ensure(2, Date.now());
    const other = agent.store.apiTokens.create({ companyId: 2, name: 'b', scope: 'badge', now: Date.now() });
    expect((await badge('monitors/backup.svg', other.token)).status).toBe(404);
  });

  it.skipIf(chromiumMissing)('renders in headless Chromium, as an <img> in a page, at its own width', async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    try {
      const html = `<!doctype html><body style="margin:20px"><p>Build status</p>
        <img id="monitor" src="${agent.url}/api/badges/${badgeKey}/monitors/rotate.svg">
        <img id="tag" src="${agent.url}/api/badges/${badgeKey}/tags/server:web-01.svg">
        <img id="escaped" src="${agent.url}/api/badges/${badgeKey}/monitors/backup.svg"></body>`;
      await page.setContent(html);
      await page.waitForFunction(() => [...document.images].every((img) => img.complete));
      const sizes = await page.$$eval('img', (images) => images.map((img) => ({ id: img.id, width: img.naturalWidth, height: img.naturalHeight })));
      for (const size of sizes) {
        expect(size.height, size.id).toBe(20);
        expect(size.width, size.id).toBeGreaterThan(40);
      }
      await screenshot(page, 'badges');
      // Opened on its own, the badge with a hostile name runs nothing.
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${agent.url}/api/badges/${badgeKey}/monitors/backup.svg`);
      expect(await page.title()).toBe('<script>alert(1)</script> & "backup": down');
      expect(dialogs).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
