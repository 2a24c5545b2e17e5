import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from './browser';

/*
 * A public URL with a path, from outside: `--public-url https://example.com/cronbeat/` behind a reverse
 * proxy that serves the agent under a path prefix. The link an alert carries must open the
 * monitor's page there: the dashboard's assets and its API calls stay under the prefix (found
 * blank: /assets/… and /api/… were asked at the host's root).
 */
describe.skipIf(chromiumMissing)('the dashboard behind a path prefix', { timeout: 60_000 }, () => {
  let agent: TestAgent;
  let proxy: Server;
  let browser: Browser;
  let base = '';
  const outside: string[] = [];

  beforeAll(async () => {
    agent = await startTestAgent({ rendererDir: builtRenderer() });
    const target = new URL(agent.url);
    proxy = createServer((req, res) => {
      if (!req.url?.startsWith('/cronbeat/')) {
        outside.push(req.url ?? '');
        res.writeHead(404).end('not under /cronbeat/');
        return;
      }
      const upstream = request(
        { host: target.hostname, port: target.port, path: req.url.slice('/cronbeat'.length), method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/cronbeat/`;
    browser = await sharedChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => proxy?.close(done));
    await agent?.stop();
  });

  it("opens a failed monitor's alert link under the prefix, signed in through the prefix", async () => {
    const created = await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', schedule: '0 3 * * *', timezone: 'Europe/Paris', duration: 30 } });
    expect(created.status).toBe(201);
    const monitor = (await created.json()) as { data?: { id: number }; id?: number };
    const id = monitor.data?.id ?? monitor.id;
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    page.setDefaultTimeout(10_000);
    await page.goto(createSignInLink(agent.store, base.replace(/\/$/, ''), agent.clock()));
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.goto(`${base}#/monitors/${id}`);
    await page.getByRole('heading', { level: 1, name: 'nightly-backup' }).waitFor();
    await screenshot(page, 'path-prefix-monitor');
    expect(outside).toEqual([]);
  });
});
