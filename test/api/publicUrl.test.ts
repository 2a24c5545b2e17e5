import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { Receiver } from '../helpers/receiver';
import { checkPublicUrl } from '../../agent/domain/access/publicUrl';

/*
 * Links pointed at 127.0.0.1. The public URL (serve --public-url,
 * CRONBEAT_PUBLIC_URL, or the dashboard's setting) is the base of alert links and copy-paste
 * lines, and a host the agent answers to.
 */

let agent: TestAgent | undefined;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await agent?.stop();
  agent = undefined;
});

/** GET `path` with a Host header of our choosing (fetch does not let one set Host). */
function getWithHost(url: string, path: string, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { Host: host, Authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the public URL', () => {
  it('checks what it is given: http(s), no credentials, no query or fragment, no trailing slash kept', () => {
    expect(checkPublicUrl('https://cron.example.com/')).toEqual({ url: 'https://cron.example.com' });
    expect(checkPublicUrl('http://laptop.lan:8787/cronbeat/')).toEqual({ url: 'http://laptop.lan:8787/cronbeat' });
    expect(checkPublicUrl('ftp://x')).toEqual({ error: 'must start with http:// or https://.' });
    expect(checkPublicUrl('https://me:pw@cron.example.com')).toMatchObject({ error: expect.stringContaining('user name or password') });
    expect(checkPublicUrl('https://cron.example.com/?a=1')).toMatchObject({ error: expect.stringContaining('query') });
    expect(checkPublicUrl('cron.example.com')).toMatchObject({ error: expect.stringContaining('absolute') });
  });

  it('set in the dashboard: GET/PATCH /api/settings, a clear 422 for a bad one, and pulse URLs, /api/agent and the Host guard follow it', async () => {
    agent = await startTestAgent();
    expect(await (await agent.api('/api/settings')).json()).toEqual({ public_url: null, public_url_source: null, watchdog_url: null, watchdog_url_source: null, watchdog_last_ping_at: null, watchdog_problem: null });
    expect(await getWithHost(agent.url, '/api/monitors', 'cron.example.com', agent.token)).toBe(421);

    const bad = await agent.api('/api/settings', { method: 'PATCH', json: { public_url: 'https://me:pw@cron.example.com' } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors.public_url[0]).toMatch(/^The public_url field must not carry a user name or password/);
    expect(await (await agent.api('/api/settings')).json()).toEqual({ public_url: null, public_url_source: null, watchdog_url: null, watchdog_url_source: null, watchdog_last_ping_at: null, watchdog_problem: null });

    const set = await agent.api('/api/settings', { method: 'PATCH', json: { public_url: 'https://cron.example.com/' } });
    expect(await set.json()).toEqual({ public_url: 'https://cron.example.com', public_url_source: 'dashboard', watchdog_url: null, watchdog_url_source: null, watchdog_last_ping_at: null, watchdog_problem: null });

    const created = await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 } });
    const monitor = await created.json();
    expect(monitor.pulse_url).toBe(`https://cron.example.com/api/pulse/${monitor.token}`);
    const reach = await (await agent.api('/api/agent')).json();
    expect(reach).toMatchObject({ public_url: 'https://cron.example.com', loopback_only: false });
    expect(reach.remote_urls[0]).toBe('https://cron.example.com');
    // A proxy passes the public name on with its own port (443, or none): both are answered.
    expect(await getWithHost(agent.url, '/api/monitors', 'cron.example.com', agent.token)).toBe(200);
    expect(await getWithHost(agent.url, '/api/monitors', 'cron.example.com:443', agent.token)).toBe(200);
    expect(await getWithHost(agent.url, '/api/monitors', 'evil.example.com', agent.token)).toBe(421);

    // Cleared: links go back to this machine's address.
    await agent.api('/api/settings', { method: 'PATCH', json: { public_url: null } });
    expect(await (await agent.api('/api/settings')).json()).toEqual({ public_url: null, public_url_source: null, watchdog_url: null, watchdog_url_source: null, watchdog_last_ping_at: null, watchdog_problem: null });
    expect(await getWithHost(agent.url, '/api/monitors', 'cron.example.com', agent.token)).toBe(421);
  });

  it('given to the agent (serve --public-url): wins, cannot be changed from the dashboard (409), and is the base of alert links', async () => {
    agent = await startTestAgent({ publicUrl: 'https://cron.example.com' });
    const hook = await new Receiver().start();
    stops.push(() => hook.stop());
    expect(await (await agent.api('/api/settings')).json()).toEqual({ public_url: 'https://cron.example.com', public_url_source: 'serve', watchdog_url: null, watchdog_url_source: null, watchdog_last_ping_at: null, watchdog_problem: null });
    const refused = await agent.api('/api/settings', { method: 'PATCH', json: { public_url: 'https://other.example.com' } });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toMatch(/--public-url/);

    await agent.api('/api/channels', { method: 'POST', json: { name: 'hook', kind: 'webhook', settings: { url: hook.url } } });
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 } })).json();
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST', body: 'disk full' });
    await hook.received(1);
    expect(JSON.parse(hook.requests[0].body).link).toBe(`https://cron.example.com/#/monitors/${monitor.id}`);
  });
});
