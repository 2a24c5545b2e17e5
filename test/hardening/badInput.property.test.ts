import { isIP } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { databaseDumper } from './databaseDump';
import { rawExchange } from './rawRequest';

/*
 * Nothing broken by bad input: whatever a client sends to any endpoint, the answer is a 4xx JSON
 * body naming the problem (or a success), never a 500, and a refused request changes nothing in
 * the database.
 */

const NOW = Date.UTC(2026, 10, 21, 12); // a fixed clock, so reads never touch last_used_at twice
let agent: TestAgent;
let dumper: ReturnType<typeof databaseDumper>;
let monitorToken: string;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => NOW });
  const ok = async (response: Promise<Response>) => expect((await response).status).toBeLessThan(300);
  await ok(agent.api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.1', identifier: 'web-1' } }));
  await ok(agent.api('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: 'web-1', command: 'backup' } }));
  const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'm', timezone: 'UTC', schedule: '* * * * *', duration: 5 } })).json();
  monitorToken = monitor.token;
  await ok(fetch(`${agent.url}/api/pulse/${monitorToken}`, { method: 'POST', body: 'output' }));
  // Deliveries are written with each notification but never sent here: the worker would change
  // rows while a refused request is being compared (it is tested in test/engine/delivery/).
  await agent.deliveries.stop();
  await ok(agent.api('/api/channels', { method: 'POST', json: { name: 'phone', kind: 'ntfy', settings: { topic: 'ops', server_url: 'http://127.0.0.1:9' } } }));
  await ok(agent.api('/api/servers')); // touches the token's last_used_at once, for good
  dumper = databaseDumper(agent.store.db);
});
afterAll(async () => {
  dumper?.close();
  await agent.stop();
});

/** Every row of every table, to compare before and after a refused request. */
const dump = () => dumper.dump();

/** Every byte percent-encoded (dots too, so fetch cannot resolve them away; lone surrogates become U+FFFD). */
const percentEncode = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

// ---- the nasty values --------------------------------------------------------------------------

const controlAndEmoji = fc.string({ unit: fc.constantFrom('\u0000', '\u0007', '\b', '\n', '\r', '\t', '\u001b', '\u007f', '\u2028', '\u202e', '\ufeff', '😀', '👩‍👩‍👧', '🏳️‍🌈', 'é', '\ud800', 'a', ' '), maxLength: 40 });
const longString = fc.integer({ min: 256, max: 20_000 }).map((n) => 'x'.repeat(n));
const hugeNumbers = fc.constantFrom(0, -0, -1, 1.5, -1e308, 1e308, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e-308, 525_601, 99_999_999_999);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  controlAndEmoji,
  longString,
  hugeNumbers,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 4 }),
);
const FIELDS = ['name', 'ip_address', 'identifier', 'username', 'server_id', 'command', 'timezone', 'schedule', 'duration', 'project_id', 'hostname', 'port', 'warn_days', 'code', 'kind', 'settings', 'quiet_hours', 'channel_ids', '__proto__', 'constructor'];
/** Objects with the API's own field names holding nasty values. */
const nastyObject = fc.dictionary(fc.constantFrom(...FIELDS), nastyValue, { maxKeys: 8 });
const deeplyNested = fc.constantFrom(
  `{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
  `{"name":"a","identifier":${'['.repeat(2000)}"x"${']'.repeat(2000)}}`,
);
/** Raw request bodies: JSON of any shape, our fields with nasty values, nesting, and non-JSON bytes. */
const nastyBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  nastyObject.map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
  deeplyNested,
  fc.string(),
  fc.uint8Array({ maxLength: 200 }),
);
/** A valid body of each create endpoint, for corrupting one or two of its fields at a time. */
let unique = 0;
const VALID_BODIES: Record<string, () => Record<string, unknown>> = {
  '/api/servers': () => ({ name: 'web', ip_address: '10.0.0.2', identifier: `host-${unique++}` }),
  '/api/servers/alert': () => ({ username: 'root', server_id: 'web-1', command: '0 3 * * * backup' }),
  '/api/monitors': () => ({ name: 'nightly', timezone: 'Europe/Paris', schedule: '0 3 * * *', duration: 30, project_id: 7 }),
  '/api/session': () => ({ code: 'not-a-code' }),
  '/api/maintenance-windows': () => ({ name: 'upgrade', starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T15:00:00+01:00', monitor_ids: [1], tags: ['db'] }),
  '/api/channels': () => ({ name: 'phone', kind: 'ntfy', settings: { topic: 'ops', server_url: 'https://ntfy.example.com' }, quiet_hours: { start: '22:00', end: '07:00', timezone: 'UTC' } }),
};
const corruptedBody = (path: string) =>
  fc.dictionary(fc.constantFrom(...Object.keys(VALID_BODIES[path]())), nastyValue, { minKeys: 1, maxKeys: 2 }).map((bad) => JSON.stringify({ ...VALID_BODIES[path](), ...bad }));

/** What an accepted create must hold: every field of the answer within the rules (spec and README). */
const ACCEPTED: Record<string, (body: any) => void> = {
  '/api/servers': (server) => {
    expect(server.name).toMatch(/^\S(.{0,253}\S)?$/s);
    expect(isIP(server.ip_address)).not.toBe(0);
    expect(server.identifier).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  },
  '/api/servers/alert': (answer) => {
    expect(answer.message).toBe('Alert received');
    expect(typeof answer.alert.username).toBe('string');
    expect(typeof answer.alert.command).toBe('string');
  },
  '/api/monitors': (monitor) => {
    expect(monitor.name).toMatch(/^\S(.{0,253}\S)?$/s);
    expect(Number.isInteger(monitor.duration) && monitor.duration >= 1 && monitor.duration <= 525_600, `duration ${monitor.duration}`).toBe(true);
    expect(monitor.project_id === null || (Number.isSafeInteger(monitor.project_id) && monitor.project_id >= 1), `project_id ${monitor.project_id}`).toBe(true);
    expect(monitor.schedule.trim().split(/\s+/)).toHaveLength(5);
    expect(typeof monitor.timezone).toBe('string');
  },
  '/api/session': () => expect.unreachable('no random code signs in'),
  '/api/maintenance-windows': (window) => {
    expect(['one_off', 'recurring']).toContain(window.kind);
    if (window.kind === 'one_off') expect(Date.parse(window.ends_at)).toBeGreaterThan(Date.parse(window.starts_at));
    else expect(Number.isInteger(window.duration) && window.duration >= 1 && window.duration <= 10_080, `duration ${window.duration}`).toBe(true);
    expect(Array.isArray(window.monitor_ids) && Array.isArray(window.tags)).toBe(true);
  },
  '/api/channels': (channel) => {
    expect(channel.name).toMatch(/^\S(.{0,253}\S)?$/s);
    expect(['webhook', 'ntfy', 'slack', 'discord', 'email', 'telegram']).toContain(channel.kind);
    expect(typeof channel.settings).toBe('object');
  },
};

/** Path ids that name nothing: never a positive integer of a row that exists. */
const badId = fc.oneof(
  fc.constantFrom('0', '-1', '1e9', 'abc', '%00', '1.5', '01', '+1', '%201', '0x1', '9'.repeat(30), '%F0%9F%98%80', '%2e%2e', 'null', '1%0A', '999999999'),
  fc
    .oneof(fc.string({ minLength: 1 }), controlAndEmoji.filter((s) => s !== ''))
    .filter((s) => !/^[1-9]\d*$/.test(s))
    .map(percentEncode)
    // A lone "." segment is removed by URL normalisation before the request is sent, so the
    // agent would see another path (e.g. POST /api/ssl-certificates/check, rightly a 405).
    .filter((s) => !/^(\.|%2e)$/i.test(s)),
);

// ---- the check ------------------------------------------------------------------------------------

/** Sends one request and checks the promise: a JSON 4xx naming the problem and nothing written, or a success. */
async function expectHandled(method: string, path: string, init: { body?: string | Uint8Array; auth?: string | null; headers?: Record<string, string> } = {}) {
  const before = dump();
  const headers: Record<string, string> = { ...init.headers };
  const auth = init.auth === undefined ? `Bearer ${agent.token}` : init.auth;
  if (auth !== null) headers.Authorization = auth;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const payload = method === 'GET' || method === 'HEAD' || init.body === undefined ? undefined : Buffer.from(init.body);
  const response = await fetch(`${agent.url}${path}`, { method, headers, body: payload });
  const text = await response.text();
  const where = `${method} ${path.slice(0, 120)} → ${response.status} ${text.slice(0, 200)}`;
  expect(response.status, where).toBeLessThan(500);
  if (response.status < 400) {
    const isJson = response.headers.get('content-type')?.startsWith('application/json');
    return { status: response.status, json: isJson && text ? JSON.parse(text) : null };
  }
  expect(dump(), `database changed by a refused request: ${where}`).toBe(before);
  if (method === 'HEAD') return { status: response.status, json: null };
  expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
  const body = JSON.parse(text);
  expect(typeof body.message, where).toBe('string');
  expect(body.message.length, where).toBeGreaterThan(0);
  if (response.status === 422) expect(Object.keys(body.errors ?? {}).length, where).toBeGreaterThan(0);
  return { status: response.status, json: body };
}

const RUNS = { numRuns: 80 };

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

describe('bad input never breaks the agent', () => {
  it.each([['/api/servers'], ['/api/servers/alert'], ['/api/monitors'], ['/api/session'], ['/api/channels'], ['/api/maintenance-windows']])('POST %s with any body, or a valid one with fields spoiled', async (path) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nastyBody, corruptedBody(path)), async (body) => {
        const { status, json } = await expectHandled('POST', path, { body });
        if (status < 300) ACCEPTED[path](json);
      }),
      { numRuns: 2 * RUNS.numRuns },
    );
  });

  it('POST /api/ssl-certificates with any body (the port kept invalid, so no live TLS check starts)', async () => {
    const badPort = fc.constantFrom(-1, 0, 65_536, '443', 1.5, true, [], {});
    const body = fc.tuple(nastyObject, badPort).map(([o, port]) => JSON.stringify({ ...o, port }));
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        expect((await expectHandled('POST', '/api/ssl-certificates', { body: b })).status).toBeGreaterThanOrEqual(400);
      }),
      RUNS,
    );
  });

  it.each([
    ['GET', '/api/servers/:id'],
    ['DELETE', '/api/servers/:id'],
    ['GET', '/api/servers/:id/alerts'],
    ['GET', '/api/monitors/:id'],
    ['DELETE', '/api/monitors/:id'],
    ['GET', '/api/monitors/:id/pulses'],
    ['GET', '/api/ssl-certificates/:id'],
    ['DELETE', '/api/ssl-certificates/:id'],
    ['POST', '/api/ssl-certificates/:id/check'],
    ['PATCH', '/api/monitors/:id'],
    ['PATCH', '/api/servers/:id'],
    ['PATCH', '/api/ssl-certificates/:id'],
    ['GET', '/api/channels/:id'],
    ['PATCH', '/api/channels/:id'],
    ['GET', '/api/maintenance-windows/:id'],
    ['PATCH', '/api/maintenance-windows/:id'],
    ['DELETE', '/api/maintenance-windows/:id'],
    ['DELETE', '/api/channels/:id'],
    ['POST', '/api/channels/:id/test'],
    ['GET', '/api/channels/:id/report-preview'],
    ['GET', '/api/notifications/:id/deliveries'],
  ])('%s %s with ids that name nothing answers 404', async (method, template) => {
    await fc.assert(
      fc.asyncProperty(badId, async (id) => {
        const { status } = await expectHandled(method, template.replace(':id', id));
        expect(status, id).toBe(404);
      }),
      RUNS,
    );
  });

  it.each([['/api/channels/1'], ['/api/monitors/1'], ['/api/servers/1']])('PATCH %s with any body', async (path) => {
    await fc.assert(
      fc.asyncProperty(nastyBody, async (body) => {
        const { status, json } = await expectHandled('PATCH', path, { body });
        if (status < 300 && path !== '/api/channels/1') expect(json.channel_ids === null || Array.isArray(json.channel_ids)).toBe(true);
      }),
      RUNS,
    );
  });

  it.each([['/api/notifications'], ['/api/monitors/1/pulses']])('GET %s with any page and per_page', async (path) => {
    const param = fc.oneof(fc.string(), controlAndEmoji, hugeNumbers.map(String), fc.constantFrom('', '0', '-1', '1e9', '101', '%00', 'abc'));
    await fc.assert(
      fc.asyncProperty(param, param, fc.boolean(), async (page, perPage, repeat) => {
        const query = `page=${percentEncode(page)}&per_page=${percentEncode(perPage)}${repeat ? '&page=2' : ''}`;
        await expectHandled('GET', `${path}?${query}`);
      }),
      RUNS,
    );
  });

  it('pulses to unknown tokens, bad actions and bad rids are refused and record nothing', async () => {
    const token = fc.oneof(fc.constant(monitorToken), fc.uuid(), fc.string({ minLength: 1 }).map(percentEncode), fc.constantFrom('%00', '%2e%2e', '0', '-1'));
    const action = fc.oneof(
      fc.constantFrom('', '/256', '/-1', '/1e9', '/abc', '/%00', '/00001', '/start/x', '/fail%00'),
      fc
        .string({ minLength: 1 })
        .map((s) => `/${percentEncode(s)}`)
        // A lone "." segment is removed by URL normalisation before the request is sent: the real
        // token's "/%2e" arrives as a plain success pulse, rightly a 200.
        .filter((s) => !/^\/(\.|%2e)$/i.test(s)),
    );
    const rid = fc.oneof(fc.constant(''), longString.map((s) => `?rid=${s}`), controlAndEmoji.map((s) => `?rid=${percentEncode(s)}&rid=2`));
    await fc.assert(
      fc.asyncProperty(token, action, rid, fc.constantFrom('GET', 'POST', 'HEAD'), nastyBody, async (t, a, r, method, body) => {
        // The router decodes the path, so "/%30" is the exit code 0: judge the decoded action.
        const decoded = safeDecode(a);
        const valid = t === monitorToken && /^(|\/start|\/fail|\/([01]?\d{1,2}|2[0-4]\d|25[0-5]))$/.test(decoded) && (r === '' || r.length < 210);
        const { status } = await expectHandled(method, `/api/pulse/${t}${a}${r}`, { body, auth: null });
        if (!valid) expect(status).toBeGreaterThanOrEqual(400);
      }),
      RUNS,
    );
  });

  it('any Authorization header, method or unknown path under /api is answered with a JSON 4xx', async () => {
    // Header values as a client library lets them through: printable ASCII, up to 20,000 characters.
    const auth = fc.oneof(fc.constant(null), fc.string().map((s) => s.replace(/[^\x20-\x7e]/g, '').trim()), controlAndEmoji.map((s) => `Bearer ${percentEncode(s)}`), longString.map((s) => `Bearer ${s}`));
    await fc.assert(
      fc.asyncProperty(auth, fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), fc.constantFrom('/api/servers', '/api/monitors', '/api/notifications', '/api/nothing', '/api/servers/1/nothing', '/api'), async (a, method, path) => {
        const { status } = await expectHandled(method, path, { auth: a, body: method === 'GET' ? undefined : '{}' });
        expect(status).toBeGreaterThanOrEqual(400);
      }),
      RUNS,
    );
  });

  it('answers what Node itself refuses (headers over 16 KB, broken HTTP) in the same JSON shape', async () => {
    const huge = await fetch(`${agent.url}/api/monitors?page=${'1'.repeat(20_000)}`, { headers: { Authorization: `Bearer ${agent.token}` } });
    expect(huge.status).toBe(431);
    expect(await huge.json()).toEqual({ message: 'The request headers (URL included) are too large.' });
    const broken = await rawExchange(agent.port, 'GET /api/monitors HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(broken).toMatch(/\{"message":"The request is not valid HTTP\."\}$/);
  });

  it('is still answering afterwards', async () => {
    expect((await agent.api('/api/monitors')).status).toBe(200);
  });
});
