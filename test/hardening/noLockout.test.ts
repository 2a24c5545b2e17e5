import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEFAULT_AUTH_LIMITER_POLICY } from '../../agent/api/http/authLimiter';
import { createSignInLink } from '../helpers/signIn';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium } from '../e2e/browser';

/*
 * Nobody is locked out by someone else's failures: not by a web page on another origin firing
 * credential-less no-cors requests at the agent, not by a guesser changing its 127.0.0.x source
 * address, and not by wrong sign-in codes while the right link is in hand.
 */

const { burst } = DEFAULT_AUTH_LIMITER_POLICY;
const now = Date.UTC(2026, 10, 23, 12);
let agent: TestAgent;

/** One request from a chosen local source address (Linux routes all of 127.0.0.0/8 to lo). */
function fromAddress(localAddress: string, path: string, init: { token?: string; body?: string; method?: string } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    if (init.body) headers['Content-Type'] = 'application/json';
    const req = request(`${agent.url}${path}`, { method: init.method ?? 'GET', headers, localAddress, agent: false }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject).end(init.body);
  });
}

beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now, rendererDir: chromiumMissing ? undefined : builtRenderer() });
});
afterAll(() => agent.stop());

describe.skipIf(chromiumMissing)('a web page on another origin', { timeout: 60_000 }, () => {
  let browser: Browser;
  let hostile: Server;
  beforeAll(async () => {
    browser = await sharedChromium();
    // The page fires no-cors requests at the agent: the browser sends them without any credential.
    hostile = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><script>
        const target = ${JSON.stringify(agent.url)};
        const shots = [];
        for (let i = 0; i < ${burst * 3}; i++) {
          shots.push(fetch(target + '/api/monitors', { mode: 'no-cors' }).catch(() => {}));
          shots.push(fetch(target + '/api/session', { mode: 'no-cors', method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"code":"guess' + i + '"}' }).catch(() => {}));
        }
        Promise.all(shots).then(() => { document.title = 'fired'; });
      </script>`);
    });
    await new Promise<void>((done) => hostile.listen(0, '127.0.0.1', done));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    hostile?.close();
  });

  it('cannot lock out a fresh token or the dashboard', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const { port } = hostile.address() as { port: number };
    await page.goto(`http://localhost:${port}/`);
    await page.waitForFunction(() => document.title === 'fired', undefined, { timeout: 30_000 });

    // The page's sign-in guesses were refused unread (text/plain is not JSON): see 'sign-in codes' below.
    const fresh = agent.tokenFor(1);
    expect((await agent.api('/api/monitors', { token: fresh })).status).toBe(200);

    const dashboard = await context.newPage();
    const refused: string[] = [];
    dashboard.on('response', (response) => {
      if (response.status() === 429 || response.status() === 401) refused.push(`${response.status()} ${response.url()}`);
    });
    await dashboard.goto(createSignInLink(agent.store, agent.url, now));
    await expect.poll(() => dashboard.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 }).toBe('Overview');
    await dashboard.getByRole('heading', { name: 'Latest notifications' }).waitFor();
    expect(refused).toEqual([]);
    await context.close();
  });
});

describe('guessing from many source addresses', () => {
  it('shares one budget across 127.0.0.x, and the right token still gets in from any of them', async () => {
    for (let i = 0; i < burst; i++) expect(await fromAddress('127.0.0.1', '/api/monitors', { token: `cb_guess${i}` })).toBe(401);
    for (const address of ['127.0.0.2', '127.0.0.3', '127.0.1.1', '127.255.0.9']) {
      expect(await fromAddress(address, '/api/monitors', { token: `cb_guess_${address}` })).toBe(429);
      expect(await fromAddress(address, '/api/monitors', { token: agent.tokenFor(1) })).toBe(200);
    }
  });
});

describe('sign-in codes', () => {
  it('are out of reach of guessing: 128 random bits, wrong ones throttled on every address, the right one always traded', async () => {
    const link = createSignInLink(agent.store, agent.url, now);
    const code = new URL(link.replace('#/sign-in?', '?')).searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{22,}$/); // ≥ 128 bits of base64url

    // The web page above spent nothing of this budget either: the first `burst` wrong codes get 422.
    const statuses: number[] = [];
    for (let i = 0; i < burst + 20; i++) {
      const address = `127.0.${i % 3}.${2 + (i % 200)}`;
      statuses.push(await fromAddress(address, '/api/session', { method: 'POST', body: JSON.stringify({ code: `wrong${i}` }) }));
    }
    expect(statuses.slice(0, burst).every((status) => status === 422)).toBe(true);
    expect(statuses.slice(burst).every((status) => status === 429)).toBe(true);

    // The person holding the real link is not locked out by the guessing.
    expect(await fromAddress('127.0.0.1', '/api/session', { method: 'POST', body: JSON.stringify({ code }) })).toBe(201);
  });
});
