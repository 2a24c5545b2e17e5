import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * What a client walking the API from outside found answered wrongly: each a request a client may
 * send by mistake, which must get a 4xx naming the field and change nothing, never a 200 that
 * quietly did something else.
 */

let agent: TestAgent;

beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

async function answer(path: string, init?: Parameters<TestAgent['api']>[1]) {
  const response = await agent.api(path, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('an id in the query past 2^53', () => {
  // 9007199254740993 has 16 digits but no double holds it: read as a number it becomes ...992,
  // another id than the client sent, which a filter must never quietly use.
  const UNSAFE = '9007199254740993';

  it('is refused by GET /api/monitors?project_id=, as a longer one is', async () => {
    const { status, body } = await answer(`/api/monitors?project_id=${UNSAFE}`);
    expect(status).toBe(422);
    expect(body.errors).toEqual({ project_id: ['The project id field must be a positive integer.'] });
    expect((await answer('/api/monitors?project_id=9007199254740991')).status).toBe(200);
  });

  it('is refused by GET /api/maintenance-windows?monitor_id=, never told as another id', async () => {
    const { status, body } = await answer(`/api/maintenance-windows?monitor_id=${UNSAFE}`);
    expect(status).toBe(422);
    expect(body.errors).toEqual({ monitor_id: ['The monitor id field must be a positive integer.'] });
  });

  it('in a body list is told once, not once per rule it breaks', async () => {
    const { status, body } = await answer('/api/maintenance-windows', {
      method: 'POST',
      body: `{"schedule":"0 3 * * 0","timezone":"UTC","duration":60,"monitor_ids":[${UNSAFE}]}`,
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ 'monitor_ids.0': ['The monitor ids field must be a list of monitor ids.'] });
  });
});

describe('PATCH /api/settings', () => {
  it('refuses a body that names neither setting, as every other PATCH does', async () => {
    for (const sent of [{}, undefined]) {
      const { status, body } = await answer('/api/settings', { method: 'PATCH', ...(sent ? { json: sent } : {}) });
      expect(status).toBe(422);
      expect(body.errors).toEqual({ body: ['The body must contain at least one of: public_url, watchdog_url.'] });
    }
    // Either alone is still a change.
    expect((await answer('/api/settings', { method: 'PATCH', json: { public_url: null } })).status).toBe(200);
  });
});

describe('a name of nothing but invisible characters', () => {
  // Laravel trims U+200B and U+200E besides white space (Str::trim); JavaScript's trim() keeps them.
  const MONITOR = { timezone: 'UTC', schedule: '0 3 * * *', duration: 5 };

  it('is a missing name, and is trimmed off a real one', async () => {
    for (const name of ['\u200b', '\u200e', ' \u200b\ufeff ']) {
      const { status, body } = await answer('/api/monitors', { method: 'POST', json: { ...MONITOR, name } });
      expect(status).toBe(422);
      expect(body.errors).toEqual({ name: ['The name field is required.'] });
    }
    const made = await answer('/api/monitors', { method: 'POST', json: { ...MONITOR, name: '\u200bNightly backup\u200e ' } });
    expect(made.status).toBe(201);
    expect(made.body.name).toBe('Nightly backup');
    // A mark inside a name is the name's own (a right-to-left name may need it).
    const inside = await answer('/api/monitors', { method: 'POST', json: { ...MONITOR, name: 'גיבוי\u200e 2' } });
    expect(inside.body.name).toBe('גיבוי\u200e 2');
  });

  it('is refused for a key and a server as for a monitor', async () => {
    const key = await answer('/api/keys', { method: 'POST', json: { name: '\u200b', scope: 'ping' } });
    expect(key.status).toBe(422);
    expect(key.body.errors).toEqual({ name: ['The name field is required.'] });
    const server = await answer('/api/servers', { method: 'POST', json: { name: '\u200b', ip_address: '10.0.0.1', identifier: 'web-01' } });
    expect(server.status).toBe(422);
    expect(server.body.errors).toEqual({ name: ['The name field is required.'] });
  });
});

describe('a path named word for word, asked with a method it does not take', () => {
  // Each sits where a route with an id does (/api/servers/{id}, /api/notifications/{id}), which
  // took the request and answered that no server "alert" or notification "read" exists.
  const cases: Array<[string, string, string]> = [
    ['GET', '/api/servers/alert', 'POST'],
    ['DELETE', '/api/servers/alert', 'POST'],
    ['PATCH', '/api/servers/heartbeat', 'POST'],
    ['HEAD', '/api/servers/heartbeat', 'POST'],
    ['PATCH', '/api/notifications/read', 'POST'],
    ['PATCH', '/api/notifications/count', 'HEAD, GET'],
    ['GET', '/api/servers/alert/', 'POST'],
  ];

  it.each(cases)('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const response = await agent.api(path, { method, ...(method === 'PATCH' ? { json: { read: true } } : {}) });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    if (method !== 'HEAD') expect(await response.json()).toEqual({ message: 'Method Not Allowed' });
  });

  it('still answers the ids beside them and the methods they take', async () => {
    const server = await answer('/api/servers', { method: 'POST', json: { name: 'Box', ip_address: '10.0.0.2', identifier: 'box-01' } });
    expect((await answer(`/api/servers/${server.body.id}`)).status).toBe(200);
    expect((await answer('/api/servers/12345')).status).toBe(404);
    expect((await answer('/api/notifications/count')).body).toEqual({ total: 0 });
    const alert = await answer('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: 'box-01', command: 'ls' } });
    expect(alert.status).toBe(201);
    expect((await agent.api('/api/servers/alert', { method: 'OPTIONS' })).headers.get('allow')).toBe('POST');
  });
});

/** What the agent answers to `request` sent as is, byte for byte, on a connection of its own. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answered = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answered += chunk)).on('end', () => resolve(answered)).on('error', reject);
  });
}

describe('an HTTP/1.1 request without Host', () => {
  it('is refused with a 400 in the JSON shape every refusal has, on the API and on a pulse', async () => {
    const port = Number(new URL(agent.url).port);
    for (const path of ['/api/monitors', '/api/pulse/4f0c6a4e-0000-4000-8000-000000000000']) {
      const answered = await rawExchange(port, `GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${agent.token}\r\n\r\n`);
      expect(answered).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(answered).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
      expect(answered).toMatch(/\{"message":"The request has no Host header, which HTTP\/1\.1 requires\."\}$/);
    }
    // HTTP/1.0 has no Host to require: the host guard answers it as before.
    expect(await rawExchange(port, 'GET /api/health HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});

describe('a query text that is not UTF-8', () => {
  // node's query decoding turns %FF (and %FE…) into U+FFFD: two different rids would pair as one.
  it('is refused naming it: a pulse rid, by either pulse door, and a server search', async () => {
    const monitor = await answer('/api/monitors', { method: 'POST', json: { name: 'Rid', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } });
    for (const path of [`/api/pulse/${monitor.body.token}/start?rid=%FF`, `/api/pulse/${monitor.body.token}/start/?rid=a%FEb`]) {
      const { status, body } = await answer(path, { token: null });
      expect(status).toBe(422);
      expect(body.errors).toEqual({ rid: ['The rid field is not UTF-8: percent-encode its bytes in UTF-8 (é is %C3%A9).'] });
    }
    const history = await answer(`/api/monitors/${monitor.body.id}/pulses`);
    expect(history.body.total).toBe(0);
    expect((await agent.api(`/api/pulse/${monitor.body.token}/start?rid=caf%C3%A9`, { token: null })).status).toBe(200);
    expect(((await answer(`/api/monitors/${monitor.body.id}/pulses`)).body.data as Array<{ rid: string }>)[0].rid).toBe('café');
    const search = await answer('/api/servers?q=%FF');
    expect(search.status).toBe(422);
    expect(search.body.errors).toEqual({ q: ['The q field is not UTF-8: percent-encode its bytes in UTF-8 (é is %C3%A9).'] });
  });
});

describe('a query parameter given twice', () => {
  it('is told so, naming it, instead of "must be an integer"', async () => {
    for (const [path, field] of [
      ['/api/notifications?page=1&page=2', 'page'],
      ['/api/notifications?per_page=10&per_page=10', 'per_page'],
      ['/api/notifications?kinds=all&kinds=spec', 'kinds'],
      ['/api/monitors?project_id=1&project_id=2', 'project_id'],
      ['/api/monitors?status=failed&status=new', 'status'],
      ['/api/maintenance-windows?active=true&active=false', 'active'],
      ['/api/servers?q=a&q=b', 'q'],
      ['/api/pulse/4f0c6a4e-0000-4000-8000-000000000000/start?rid=a&rid=b', 'rid'],
    ]) {
      const { status, body } = await answer(path);
      expect(status, path).toBe(422);
      expect(body.errors, path).toEqual({ [field]: [`The ${field.replace('_', ' ')} field must be given once.`] });
    }
  });
});

describe('a lone surrogate in a text that is not a name', () => {
  // "\ud800" in JSON is a string UTF-8 cannot hold: SQLite stored U+FFFD in its place and the
  // answer said a command the watcher never sent.
  it('is refused naming the field, in an alert and in an email channel\'s host', async () => {
    await answer('/api/servers', { method: 'POST', json: { name: 'Db', ip_address: '10.0.0.3', identifier: 'db-01' } });
    for (const field of ['command', 'previous_command']) {
      const sent = { username: 'root', server_id: 'db-01', command: 'ls', [field]: 'rm -rf \ud800/' };
      const { status, body } = await answer('/api/servers/alert', { method: 'POST', json: sent });
      expect(status).toBe(422);
      expect(body.errors).toEqual({ [field]: [`The ${field.replace('_', ' ')} field must be text: it has a lone surrogate, which UTF-8 cannot hold.`] });
    }
    // A tab is a crontab's own, and a whole pair (an emoji) is text.
    const kept = await answer('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: 'db-01', command: 'backup\t🎉' } });
    expect((kept.body.alert as { command: string }).command).toBe('backup\t🎉');
    const channel = await answer('/api/channels', { method: 'POST', json: { name: 'Mail', kind: 'email', settings: { host: 'smtp\ud800', from: 'a@b.example', to: 'c@d.example' } } });
    expect(channel.status).toBe(422);
    expect(Object.keys(channel.body.errors as object)).toEqual(['settings.host']);
  });
});

describe('a notification id in upper case', () => {
  // A UUID is case-insensitive (RFC 9562), and some tools print it in capitals (Windows' uuidgen).
  it('names the same notification when marked read and for its deliveries', async () => {
    await answer('/api/servers', { method: 'POST', json: { name: 'Up', ip_address: '10.0.0.4', identifier: 'up-01' } });
    await answer('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: 'up-01', command: 'ls' } });
    const list = await answer('/api/notifications?kinds=all&per_page=1');
    const id = (list.body.data as Array<{ id: string }>)[0].id;
    const marked = await answer(`/api/notifications/${id.toUpperCase()}`, { method: 'PATCH', json: { read: true } });
    expect(marked.status).toBe(200);
    expect(marked.body.id).toBe(id);
    expect(marked.body.read_at).not.toBeNull();
    expect((await agent.api(`/api/notifications/${id.toUpperCase()}/deliveries`)).status).toBe(200);
  });
});
