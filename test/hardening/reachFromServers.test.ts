import { hostname, networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createSignInLink } from '../helpers/signIn';
import { networkAddresses } from '../../agent/domain/access/reachability';
import { finished, spawnCli } from '../helpers/cli';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';
import { builtRenderer, chromiumMissing, sharedChromium, screenshot } from '../e2e/browser';

/*
 * Servers reaching the agent. `cronbeat serve --host 0.0.0.0` names this machine's addresses,
 * says what listening beyond loopback exposes and what protects it, and prints a sign-in link
 * that works from another machine (not http://0.0.0.0:P/…, which answers 421). An agent on
 * loopback only tells the admin, on the server page, how to make it reachable and which address
 * the server will then use.
 */

const addresses = networkAddresses(networkInterfaces());
const urlHost = (address: string) => (address.includes(':') ? `[${address}]` : address);
/** The host name is offered too, unless it is only "localhost". */
const hostNames = hostname() && hostname() !== 'localhost' ? [hostname().toLowerCase()] : [];

describe('cronbeat serve --host 0.0.0.0', () => {
  it('lists the addresses, warns plainly, and prints a sign-in link that works from another machine', async () => {
    const child = spawnCli(['serve', '--host', '0.0.0.0', '--port', '0', '--no-popups', '--data-dir', tempDir()]);
    const result = finished(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    try {
      await expect.poll(() => stdout, { timeout: 15_000 }).toMatch(/sign-in\?code=\S+\n[\s\S]*$/);
      await expect.poll(() => stdout).toMatch(addresses.length ? /from another machine: / : /no network address/);
      expect(stdout).not.toContain('0.0.0.0');
      // Another pipe: what stdout has says nothing of what stderr's reader has got yet.
      await expect.poll(() => stderr).toMatch(/plain HTTP/);
      expect(stderr).toMatch(/Warning: this agent listens beyond this machine/);
      expect(stderr).toMatch(/pulses/);
      expect(stderr).toMatch(/API token/);
      expect(stderr).toMatch(/plain HTTP/);

      const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)![1]);
      for (const address of addresses) expect(stdout).toContain(`http://${urlHost(address)}:${port}`);
      for (const name of hostNames) expect(stdout).toContain(`http://${name}:${port}`);

      const links = [...stdout.matchAll(/(http:\/\/\S+)\/#\/sign-in\?code=(\S+)/g)];
      const remote = links.find(([, origin]) => !origin.includes('127.0.0.1')) ?? links[0];
      if (addresses.length) expect(new URL(remote[1]).hostname).toBe(urlHost(addresses[0]));
      // Trading the code at the printed address, as a browser on another machine would.
      const session = await fetch(`${remote[1]}/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: remote[2] }),
      });
      expect(session.status).toBe(201);
      const { token } = await session.json();
      const reach = await (await fetch(`${remote[1]}/api/agent`, { headers: { Authorization: `Bearer ${token}` } })).json();
      expect(reach).toMatchObject({ host: '0.0.0.0', port, loopback_only: false });
    } finally {
      child.kill('SIGTERM');
      await result;
    }
  });
});

describe('an agent on loopback only', () => {
  let agent: TestAgent;
  let browser: Browser | undefined;
  beforeAll(async () => {
    agent = await startTestAgent({ rendererDir: chromiumMissing ? undefined : builtRenderer() });
  });
  afterAll(async () => {
    await browser?.close();
    await agent.stop();
  });

  it('says so in /api/agent, with the addresses other machines will use once it listens on them', async () => {
    const reach = await (await agent.api('/api/agent')).json();
    expect(reach).toEqual({
      host: '127.0.0.1',
      port: agent.port,
      loopback_only: true,
      public_url: null,
      remote_urls: [...addresses, ...hostNames].map((name) => `http://${urlHost(name)}:${agent.port}`),
      popups: false, // a test agent has no notifier, as a headless one
    });
    expect((await agent.api('/api/agent', { token: null })).status).toBe(401);
  });

  it.skipIf(chromiumMissing)('has its server page say how to make it reachable, and show the command with a usable address', { timeout: 60_000 }, async () => {
    const server = await (
      await agent.api('/api/servers', { method: 'POST', json: { name: 'web-1', ip_address: '192.0.2.10', identifier: 'web-1' } })
    ).json();
    browser = await sharedChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(createSignInLink(agent.store, agent.url, Date.now()));
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.goto(`${agent.url}/#/servers/${server.id}`);
    const notice = page.getByTestId('agent-unreachable');
    await notice.waitFor();
    expect(await notice.innerText()).toContain('cronbeat serve --host 0.0.0.0 --allow-host NAME');
    expect(await notice.innerText()).toContain('Let servers reach this agent');
    const command = await page.getByRole('textbox', { name: 'Watch command' }).inputValue();
    expect(command).toMatch(/^cronbeat crontab watch --server web-1 --url http:\/\//);
    expect(command).not.toContain('127.0.0.1');
    expect(command).toContain(`:${agent.port}`);
    await screenshot(page, 'server-agent-unreachable');
  });
});
