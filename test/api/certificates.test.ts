import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingNotifier } from '../helpers/recordingNotifier';
import { startTestAgent, TIMESTAMP, type TestAgent } from '../helpers/testAgent';
import { closedPort, daysFromNow, makeCa, makeLeaf, startTlsServer, type RunningServer, type TestCa } from '../engine/certificates/tls-fixtures';

let agent: TestAgent;
let ca: TestCa;
let notifier: RecordingNotifier;
const servers: RunningServer[] = [];

beforeAll(async () => {
  ca = makeCa();
  notifier = new RecordingNotifier();
  agent = await startTestAgent({ notifier, certificateChecks: { extraCa: ca.certPem, timeoutMs: 10_000 } });
});

afterAll(async () => {
  await agent.stop();
  await Promise.all(servers.map((s) => s.close()));
});

async function tlsServer(notAfterDays = 90) {
  const server = await startTlsServer(makeLeaf({ ca, notAfter: daysFromNow(notAfterDays) }));
  servers.push(server);
  return server;
}

function create(body: unknown, token?: string) {
  return agent.api('/api/ssl-certificates', { method: 'POST', json: body, token });
}

async function certificateNotifications(certificateId: number) {
  const page = await (await agent.api('/api/notifications?per_page=100')).json();
  return (page.data as Array<{ type: string; data: Record<string, unknown> }>)
    .filter((n) => n.data.type === 'ssl_certificate' && n.data.type_id === certificateId)
    .reverse(); // oldest first
}

const FIELDS = [
  'id',
  'company_id',
  'hostname',
  'port',
  'warn_days',
  'status',
  'expires_at',
  'valid_from',
  'issuer',
  'subject',
  'fingerprint_sha256',
  'last_checked_at',
  'last_error',
  'created_at',
  'updated_at',
  'deleted_at',
  'channel_ids',
];

describe('POST /api/ssl-certificates', () => {
  it('creates, checks at once and answers 201 with every field typed', async () => {
    const server = await tlsServer();
    const response = await create({ hostname: 'localhost', port: server.port, warn_days: 30, extra: 'ignored' });
    expect(response.status).toBe(201);
    const cert = await response.json();
    expect(Object.keys(cert)).toEqual(FIELDS);
    expect(cert).toMatchObject({
      company_id: 1,
      hostname: 'localhost',
      port: server.port,
      warn_days: 30,
      status: 'valid',
      issuer: 'O=Cronbeat Tests, CN=Cronbeat Test Root CA',
      subject: 'CN=localhost',
      last_error: null,
      deleted_at: null,
    });
    expect(Number.isInteger(cert.id)).toBe(true);
    for (const field of ['expires_at', 'valid_from', 'last_checked_at', 'created_at', 'updated_at']) {
      expect(cert[field]).toMatch(TIMESTAMP);
    }
    expect(Date.parse(cert.expires_at)).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    expect(cert.fingerprint_sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('defaults port to 443 and warn_days to 14, and says why a host cannot be checked', async () => {
    const response = await create({ hostname: '127.0.0.1' });
    expect(response.status).toBe(201);
    const cert = await response.json();
    expect(cert).toMatchObject({ port: 443, warn_days: 14, status: 'unreachable', expires_at: null, issuer: null });
    expect(cert.last_error).toBe('Connection refused');
    expect(cert.last_checked_at).toMatch(TIMESTAMP);
  });

  it('normalizes the hostname: lowercase, no trailing dot', async () => {
    const server = await tlsServer();
    const cert = await (await create({ hostname: 'LocalHost.', port: server.port })).json();
    expect(cert).toMatchObject({ hostname: 'localhost', status: 'valid' });
  });

  it('refuses the same hostname and port twice (422 on hostname), until the first is deleted', async () => {
    const port = await closedPort();
    const first = await (await create({ hostname: '127.0.0.1', port })).json();
    const again = await create({ hostname: '127.0.0.1', port });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({
      message: `127.0.0.1 on port ${port} is already watched.`,
      errors: { hostname: [`127.0.0.1 on port ${port} is already watched.`] },
    });
    expect((await agent.api(`/api/ssl-certificates/${first.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await create({ hostname: '127.0.0.1', port })).status).toBe(201);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['hostname', {}, 'The hostname field is required.'],
    ['hostname', { hostname: '' }, 'The hostname field is required.'],
    ['hostname', { hostname: 42 }, 'The hostname field must be a string.'],
    ['hostname', { hostname: 'https://example.com' }, 'The hostname field must be a DNS name or an IP address, without scheme, port or path.'],
    ['hostname', { hostname: 'example.com:443' }, 'The hostname field must be a DNS name or an IP address, without scheme, port or path.'],
    ['hostname', { hostname: 'localhost/path' }, 'The hostname field must be a DNS name or an IP address, without scheme, port or path.'],
    ['hostname', { hostname: 'exa mple.com' }, 'The hostname field must be a DNS name or an IP address, without scheme, port or path.'],
    ['hostname', { hostname: '-bad.example' }, 'The hostname field must be a DNS name or an IP address, without scheme, port or path.'],
    ['hostname', { hostname: '10.0.0.300' }, 'The hostname field must be a DNS name or an IP address, without scheme, port or path.'],
    ['hostname', { hostname: `${'a'.repeat(64)}.example` }, 'The hostname field must be a DNS name or an IP address, without scheme, port or path.'],
    ['hostname', { hostname: 'a'.repeat(256) }, 'The hostname field must not be greater than 255 characters.'],
    ['port', { hostname: 'localhost', port: 0 }, 'The port field must be between 1 and 65535.'],
    ['port', { hostname: 'localhost', port: 65_536 }, 'The port field must be between 1 and 65535.'],
    ['port', { hostname: 'localhost', port: '443' }, 'The port field must be an integer.'],
    ['port', { hostname: 'localhost', port: 44.3 }, 'The port field must be an integer.'],
    ['warn_days', { hostname: 'localhost', warn_days: 0 }, 'The warn days field must be between 1 and 365.'],
    ['warn_days', { hostname: 'localhost', warn_days: 366 }, 'The warn days field must be between 1 and 365.'],
    ['warn_days', { hostname: 'localhost', warn_days: true }, 'The warn days field must be an integer.'],
  ];
  it.each(invalid)('answers 422 naming %s for %j, and writes nothing', async (field, body, message) => {
    const before = (await (await agent.api('/api/ssl-certificates')).json()).length;
    const response = await create(body);
    expect(response.status).toBe(422);
    const answer = await response.json();
    expect(answer.errors[field]).toEqual([message]);
    expect(answer.message).toBe(message);
    expect((await (await agent.api('/api/ssl-certificates')).json()).length).toBe(before);
  });

  it('answers 400 for malformed JSON and 401 without a token', async () => {
    const malformed = await agent.api('/api/ssl-certificates', {
      method: 'POST',
      body: '{"hostname":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await create({ hostname: 'localhost' }, null as unknown as string)).status).toBe(401);
    expect((await agent.api('/api/ssl-certificates', { token: null })).status).toBe(401);
  });
});

describe('GET and DELETE /api/ssl-certificates', () => {
  it('lists and shows the company’s certificates, and hides them from another company (404)', async () => {
    const server = await tlsServer();
    const mine = await (await create({ hostname: '127.0.0.1', port: server.port })).json();
    const list = await (await agent.api('/api/ssl-certificates')).json();
    expect(list.find((c: { id: number }) => c.id === mine.id)).toEqual(mine);
    expect(await (await agent.api(`/api/ssl-certificates/${mine.id}`)).json()).toEqual(mine);

    const other = agent.tokenFor(2);
    expect(await (await agent.api('/api/ssl-certificates', { token: other })).json()).toEqual([]);
    for (const [method, path] of [
      ['GET', `/api/ssl-certificates/${mine.id}`],
      ['DELETE', `/api/ssl-certificates/${mine.id}`],
      ['POST', `/api/ssl-certificates/${mine.id}/check`],
    ]) {
      const response = await agent.api(path, { method, token: other });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'Certificate not found.' });
    }
    expect((await agent.api(`/api/ssl-certificates/${mine.id}`)).status).toBe(200);
  });

  it('soft-deletes: 204, then 404 everywhere, and its notifications stay', async () => {
    const server = await tlsServer();
    const cert = await (await create({ hostname: 'localhost', port: server.port })).json();
    const deleted = await agent.api(`/api/ssl-certificates/${cert.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await agent.api(`/api/ssl-certificates/${cert.id}`)).status).toBe(404);
    expect((await agent.api(`/api/ssl-certificates/${cert.id}/check`, { method: 'POST' })).status).toBe(404);
    expect((await agent.api(`/api/ssl-certificates/${cert.id}`, { method: 'DELETE' })).status).toBe(404);
    const list = await (await agent.api('/api/ssl-certificates')).json();
    expect(list.map((c: { id: number }) => c.id)).not.toContain(cert.id);
    expect(agent.store.certificates.findLive(cert.id)).toBeNull();
    expect(await certificateNotifications(cert.id)).toHaveLength(1);
  });

  it('answers 404 for ids that are not positive integers', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      expect((await agent.api(`/api/ssl-certificates/${id}`)).status).toBe(404);
    }
  });
});

describe('POST /api/ssl-certificates/{id}/check and the notifications it makes', () => {
  it('tells once per change, never on a repeat, and on a renewal; popups only for bad news', async () => {
    const server = await tlsServer(3);
    notifier.take();
    const cert = await (await create({ hostname: 'localhost', port: server.port })).json();
    expect(cert.status).toBe('expiring');
    expect(notifier.take().map((p) => p.title)).toEqual([`Certificate expires in 3 days: localhost:${server.port}`]);

    const again = await agent.api(`/api/ssl-certificates/${cert.id}/check`, { method: 'POST' });
    expect(again.status).toBe(200);
    const rechecked = await again.json();
    expect(rechecked.status).toBe('expiring');
    expect(Date.parse(rechecked.last_checked_at)).toBeGreaterThanOrEqual(Date.parse(cert.last_checked_at));
    expect(await certificateNotifications(cert.id)).toHaveLength(1);

    server.serve(makeLeaf({ ca, notAfter: daysFromNow(90) }));
    const renewed = await (await agent.api(`/api/ssl-certificates/${cert.id}/check`, { method: 'POST' })).json();
    expect(renewed.status).toBe('valid');
    expect(renewed.fingerprint_sha256).not.toBe(cert.fingerprint_sha256);
    expect(notifier.take()).toEqual([]);

    const notifications = await certificateNotifications(cert.id);
    expect(notifications).toHaveLength(2);
    const [first, renewal] = notifications;
    expect(first.type).toBe('App\\Notifications\\SslCertificateNotification');
    expect(first.data).toMatchObject({
      type: 'ssl_certificate',
      type_id: cert.id,
      project_id: null,
      status: 'expiring',
      title: `Certificate expires in 3 days: localhost:${server.port}`,
      timezone: 'UTC',
      icon: 'fa-solid fa-hourglass-half',
      ssl_certificate_hostname: 'localhost',
      ssl_certificate_port: server.port,
      ssl_certificate_expires_at: cert.expires_at,
      ssl_certificate_status: 'expiring',
      ssl_certificate_last_checked_at: cert.last_checked_at,
    });
    expect(renewal.data).toMatchObject({
      status: 'valid',
      ssl_certificate_status: 'valid',
      title: `Certificate renewed: localhost:${server.port}`,
      ssl_certificate_expires_at: renewed.expires_at,
      ssl_certificate_last_checked_at: renewed.last_checked_at,
    });
    for (const n of notifications) {
      expect(typeof n.data.description).toBe('string');
      expect(n.data.ssl_certificate_expires_at).toMatch(TIMESTAMP);
      expect(n.data.ssl_certificate_last_checked_at).toMatch(TIMESTAMP);
    }
  });

  it('pops up when a certificate turns untrusted, with the reason in last_error', async () => {
    const server = await tlsServer();
    const cert = await (await create({ hostname: 'localhost', port: server.port })).json();
    notifier.take();
    server.serve(makeLeaf({ names: ['localhost'] })); // self-signed now
    const checked = await (await agent.api(`/api/ssl-certificates/${cert.id}/check`, { method: 'POST' })).json();
    expect(checked).toMatchObject({ status: 'invalid', last_error: 'Self-signed certificate' });
    const [popup] = notifier.take();
    expect(popup).toMatchObject({ title: `Certificate invalid: localhost:${server.port}`, route: '/certificates' });
    expect(popup.body).toBe(`The certificate of localhost:${server.port} is not trusted: Self-signed certificate.`);
  });
});
