import * as http from 'node:http';
import * as net from 'node:net';
import * as tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingNotifier } from '../helpers/recordingNotifier';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';
import { Receiver } from '../helpers/receiver';
import { closedPort, daysFromNow, makeCa, makeLeaf, startSilentServer, startTlsServer, type TestCa } from '../engine/certificates/tls-fixtures';
import { until } from '../helpers/until';

/*
 * A real agent checking real servers of the kinds an admin points it at by mistake or that go
 * wrong in the field: what the certificate says, and what the alert says about it.
 */

let agent: TestAgent;
let ca: TestCa;
let notifier: RecordingNotifier;
const closers: Array<() => void> = [];

beforeAll(async () => {
  ca = makeCa();
  notifier = new RecordingNotifier();
  agent = await startTestAgent({ notifier, certificateChecks: { extraCa: ca.certPem, timeoutMs: 10_000 } });
});

afterAll(async () => {
  await agent.stop();
  for (const close of closers) close();
});

async function listening(server: net.Server, host = '127.0.0.1'): Promise<number> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return (server.address() as net.AddressInfo).port;
}

/** A TCP server that greets every connection with `greeting` and reads what it is sent. */
function talking(greeting: Buffer | string): Promise<number> {
  return listening(
    net.createServer((socket) => {
      socket.resume();
      socket.write(greeting);
    }),
  );
}

async function watch(hostname: string, port: number) {
  const response = await agent.api('/api/ssl-certificates', { method: 'POST', json: { hostname, port } });
  expect(response.status).toBe(201);
  return response.json();
}

async function notificationsOf(id: number) {
  const page = await (await agent.api('/api/notifications?per_page=100&kinds=all')).json();
  return (page.data as Array<{ type: string; data: Record<string, unknown> }>)
    .filter((n) => n.data.type === 'ssl_certificate' && n.data.type_id === id)
    .reverse();
}

describe('a port that answers in another protocol', () => {
  const NOT_TLS = 'Not a TLS server: it answered in another protocol (plain HTTP?)';

  it('is unreachable, and says so in words rather than in OpenSSL’s internals: plain HTTP', async () => {
    const port = await listening(http.createServer((_, response) => response.end('hello')));
    const cert = await watch('127.0.0.1', port);
    expect(cert).toMatchObject({ status: 'unreachable', last_error: NOT_TLS });
    const [notification] = await notificationsOf(cert.id);
    expect(notification.data).toMatchObject({
      title: `Certificate check failed: 127.0.0.1:${port}`,
      description: `127.0.0.1:${port} could not be checked: ${NOT_TLS}.`,
    });
  });

  it('is unreachable in the same words for an SSH-like banner', async () => {
    const cert = await watch('127.0.0.1', await talking('SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n'));
    expect(cert).toMatchObject({ status: 'unreachable', last_error: NOT_TLS });
  });

  it('names a TLS server’s refusal by OpenSSL’s reason alone, without its addresses and source lines', async () => {
    // A fatal handshake_failure alert, as a server that shares no cipher with us sends.
    const cert = await watch('127.0.0.1', await talking(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])));
    expect(cert).toMatchObject({ status: 'unreachable', last_error: 'TLS handshake failed: sslv3 alert handshake failure' });
  });
});

describe('a certificate for other names', () => {
  it('is invalid, and the alert says which names it is for, in words', async () => {
    const names = ['example.com', '*.example.com', 'a.example', 'b.example', 'c.example', 'd.example', '10.0.0.1'];
    const server = await startTlsServer(makeLeaf({ ca, names }));
    closers.push(() => void server.close());
    const cert = await watch('localhost', server.port);
    const words = 'Hostname mismatch: the certificate is for example.com, *.example.com, a.example, b.example, c.example and 2 more names, not localhost';
    expect(cert).toMatchObject({ status: 'invalid', last_error: words });
    const [notification] = await notificationsOf(cert.id);
    expect(notification.data.description).toBe(`The certificate of localhost:${server.port} is not trusted: ${words}.`);
  });
});

describe('an incomplete chain', () => {
  it('is invalid, and the alert names the likely cause: the server does not send the intermediate certificate', async () => {
    // Signed by an intermediate the checker does not trust and the server does not send.
    const server = await startTlsServer(makeLeaf({ ca: makeCa('Cronbeat Test Intermediate') }));
    closers.push(() => void server.close());
    const cert = await watch('localhost', server.port);
    expect(cert).toMatchObject({
      status: 'invalid',
      issuer: 'O=Cronbeat Tests, CN=Cronbeat Test Intermediate',
      last_error: 'Untrusted certificate: the server sends no chain to a trusted authority (is an intermediate certificate missing?)',
    });
  });
});

describe('two checks at once', () => {
  it('are one check: a change is told once', async () => {
    const server = await startTlsServer(makeLeaf({ ca }));
    closers.push(() => void server.close());
    const cert = await watch('localhost', server.port);
    server.serve(makeLeaf({ names: ['localhost'] }));
    const both = await Promise.all([1, 2].map(() => agent.api(`/api/ssl-certificates/${cert.id}/check`, { method: 'POST' })));
    expect(await Promise.all(both.map(async (r) => [r.status, (await r.json()).status]))).toEqual([[200, 'invalid'], [200, 'invalid']]);
    expect((await notificationsOf(cert.id)).map((n) => n.data.status)).toEqual(['valid', 'invalid']);
  });
});

describe('two names on one port', () => {
  it('are two certificates: the name is sent as SNI and each gets its own, an IP address none (the server’s default)', async () => {
    const named = makeLeaf({ ca, names: ['localhost'] });
    const fallback = makeLeaf({ ca, names: ['127.0.0.1'] });
    const server = tls.createServer(
      {
        key: fallback.keyPem,
        cert: fallback.certPem,
        SNICallback: (name, done) => done(null, tls.createSecureContext(name === 'localhost' ? { key: named.keyPem, cert: named.certPem } : { key: fallback.keyPem, cert: fallback.certPem })),
      },
      (socket) => socket.end(),
    );
    const port = await listening(server);
    const byName = await watch('localhost', port);
    const byAddress = await watch('127.0.0.1', port);
    expect([byName.subject, byName.status]).toEqual(['CN=localhost', 'valid']);
    expect([byAddress.subject, byAddress.status]).toEqual(['CN=127.0.0.1', 'valid']);
    expect(byName.fingerprint_sha256).not.toBe(byAddress.fingerprint_sha256);
  });
});

describe('an IPv6 host', () => {
  it('is checked at [::1] and named with brackets before a port, so the port does not read as part of the address', async () => {
    const leaf = makeLeaf({ ca, names: ['localhost', '::1'] });
    const port = await listening(tls.createServer({ key: leaf.keyPem, cert: leaf.certPem }, (socket) => socket.end()), '::1');
    const cert = await watch('[::1]', port);
    expect(cert).toMatchObject({ hostname: '::1', port, status: 'valid', last_error: null });
    const [notification] = await notificationsOf(cert.id);
    expect(notification.data).toMatchObject({ ssl_certificate_hostname: '::1', title: `Certificate valid: [::1]:${port}` });
    expect(notification.data.description).toMatch(new RegExp(`^The certificate of \\[::1\\]:${port} is valid until `));
  });
});

describe('the same IPv6 address written another way', () => {
  it('is the same host: stored in one form, so a second watch of it is refused (422 on hostname) and nothing is added', async () => {
    const port = await closedPort();
    const first = await watch('0:0:0:0:0:0:0:1', port);
    expect(first.hostname).toBe('::1');
    const before = await (await agent.api('/api/ssl-certificates')).json();
    for (const same of ['::1', '[0000:0000:0000:0000:0000:0000:0000:0001]', '0::0:1']) {
      const again = await agent.api('/api/ssl-certificates', { method: 'POST', json: { hostname: same, port } });
      expect(again.status, same).toBe(422);
      expect((await again.json()).errors).toEqual({ hostname: [`::1 on port ${port} is already watched.`] });
    }
    expect(await (await agent.api('/api/ssl-certificates')).json()).toEqual(before);
  });

  it('keeps a zone id as written: it names an interface of this machine, and those names are case-sensitive', async () => {
    const cert = await watch('0::1%Lo0', await closedPort());
    expect(cert.hostname).toBe('::1%Lo0');
  });
});

describe('the channels', () => {
  /** An ntfy channel on a local receiver; each test's certificate sends to its own, under its 3 messages a minute. */
  async function ntfyChannel(name: string) {
    const ntfy = await new Receiver().start();
    closers.push(() => void ntfy.stop());
    const channel = await agent.api('/api/channels', { method: 'POST', json: { name, kind: 'ntfy', settings: { server_url: ntfy.url, topic: 'certs' } } });
    expect(channel.status).toBe(201);
    return { ntfy, id: (await channel.json()).id as number };
  }

  async function watchSending(leaf: ReturnType<typeof makeLeaf>, channelId: number) {
    const server = await startTlsServer(leaf);
    closers.push(() => void server.close());
    const response = await agent.api('/api/ssl-certificates', { method: 'POST', json: { hostname: 'localhost', port: server.port, channel_ids: [channelId] } });
    expect(response.status).toBe(201);
    const cert = await response.json();
    const check = async () => (await (await agent.api(`/api/ssl-certificates/${cert.id}/check`, { method: 'POST' })).json()).status;
    return { server, check };
  }

  const shown = (ntfy: Receiver, port: number) =>
    ntfy.requests.map((r) => JSON.parse(r.body) as { title: string; priority: number; tags: string[] }).map((m) => [m.title.replace(`:${port}`, ''), m.tags, m.priority]);

  it('tell good news as good and a coming expiry as a warning (every certificate alert was sent as a failure: a renewal in red)', async () => {
    const { ntfy, id } = await ntfyChannel('phone');
    const { server, check } = await watchSending(makeLeaf({ ca, notAfter: daysFromNow(90) }), id);
    server.serve(makeLeaf({ ca, notAfter: daysFromNow(5) }));
    expect(await check()).toBe('expiring');
    server.serve(makeLeaf({ ca, notAfter: daysFromNow(90) }));
    expect(await check()).toBe('valid');
    await ntfy.received(3);
    expect(shown(ntfy, server.port)).toEqual([
      ['Certificate valid: localhost', ['white_check_mark'], 3],
      ['Certificate expires in 5 days: localhost', ['warning'], 4],
      ['Certificate renewed: localhost', ['white_check_mark'], 3],
    ]);
  });

  it('tell bad news as bad', async () => {
    const { ntfy, id } = await ntfyChannel('pager');
    const { server } = await watchSending(makeLeaf({ names: ['localhost'] }), id);
    await ntfy.received(1);
    expect(shown(ntfy, server.port)).toEqual([['Certificate invalid: localhost', ['rotating_light'], 4]]);
  });
});

describe('hosts that stall', () => {
  it('hold only the background checks: a check someone asks for, and pulses, go on at once', async () => {
    // Four hosts that accept and never say a word, as many as there are slots for scheduled checks.
    const held: net.Socket[] = [];
    const stalling = await Promise.all(Array.from({ length: 4 }, () => startSilentServer((socket) => held.push(socket))));
    closers.push(() => stalling.forEach((server) => void server.close()));
    const dataDir = tempDir();
    const first = await startTestAgent({ dataDir });
    for (const server of stalling) first.store.certificates.create({ companyId: 1, hostname: '127.0.0.1', port: server.port, warnDays: 14, now: Date.now() });
    await first.close();
    // Started again, the agent checks what is due at once; each stalled check would hold its slot a minute.
    const again = await startTestAgent({ dataDir, certificateChecks: { extraCa: ca.certPem, timeoutMs: 60_000 } });
    closers.push(() => void again.stop());
    await until(() => held.length === 4, 'the four scheduled checks to reach their hosts');

    const monitor = await (await again.api('/api/monitors', { method: 'POST', json: { name: 'backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } })).json();
    expect((await fetch(`${again.url}/api/pulse/${monitor.token}`)).status).toBe(200);
    const good = await startTlsServer(makeLeaf({ ca }));
    closers.push(() => void good.close());
    const added = await again.api('/api/ssl-certificates', { method: 'POST', json: { hostname: 'localhost', port: good.port } });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ status: 'valid' });
    // Answered while the stalled hosts still hold their connections: it never waited for their slots.
    expect(held.filter((socket) => !socket.destroyed)).toHaveLength(4);
    const stalled = (await (await again.api('/api/ssl-certificates')).json()) as Array<{ port: number; status: string }>;
    expect(stalled.filter((c) => c.status === 'pending')).toHaveLength(4);
    for (const socket of held) socket.destroy();
  });
});

describe('the agent’s clock moved across a reminder and the expiry', () => {
  it('checks again at the moment the news is due, not up to 6 hours later; in UTC words, a daylight-saving night between', async () => {
    const HOUR = 3_600_000;
    // Expires the day after Europe's clocks go forward (28 March 2027): the words stay in UTC, whole days of 24 hours.
    const expiresAt = Date.parse('2027-03-29T12:00:00Z');
    const server = await startTlsServer(makeLeaf({ ca, notAfter: new Date(expiresAt) }));
    closers.push(() => void server.close());
    const dataDir = tempDir();
    let now = expiresAt - 7 * 24 * HOUR - 2 * HOUR;
    const options = { dataDir, clock: () => now, channels: { adminZone: 'Europe/Paris' }, certificateChecks: { extraCa: ca.certPem, timeoutMs: 10_000 } };
    let clocked = await startTestAgent(options);
    const cert = await (await clocked.api('/api/ssl-certificates', { method: 'POST', json: { hostname: 'localhost', port: server.port } })).json();
    expect(cert).toMatchObject({ status: 'expiring', expires_at: '2027-03-29T12:00:00.000000Z' });

    /** Starts the agent again at `at` (it checks what is due at once) and waits for the check of that moment. */
    const runAt = async (at: number) => {
      await clocked.close();
      now = at;
      clocked = await startTestAgent(options);
      closers.push(() => void clocked.stop());
      const read = async () => (await clocked.api(`/api/ssl-certificates/${cert.id}`)).json();
      await expect.poll(async () => (await read()).last_checked_at, { message: `a check at ${new Date(at).toISOString()}` }).toBe(new Date(at).toISOString().replace('Z', '000Z'));
      return read();
    };
    const titles = async () => {
      const page = await (await clocked.api('/api/notifications?per_page=100')).json();
      return (page.data as Array<{ data: { title: string; description: string } }>).map((n) => n.data.title.replace(`:${server.port}`, '')).reverse();
    };

    // Two hours later the 7-day reminder is due: the check planned 6 h after the first comes at that moment instead.
    await runAt(expiresAt - 7 * 24 * HOUR + 60_000);
    expect(await titles()).toEqual(['Certificate expires in 8 days: localhost', 'Certificate expires in 7 days: localhost']);
    await runAt(expiresAt - 24 * HOUR + 60_000);
    await runAt(expiresAt - HOUR);
    // A minute past the expiry, not at the next 6-hourly check five hours on.
    expect(await runAt(expiresAt + 60_000)).toMatchObject({ status: 'expired', last_error: 'Certificate expired on 2027-03-29 12:00 UTC' });
    expect(await titles()).toEqual([
      'Certificate expires in 8 days: localhost',
      'Certificate expires in 7 days: localhost',
      'Certificate expires in 1 day: localhost',
      'Certificate expired: localhost',
    ]);
  });
});

describe('odd input', () => {
  it('is refused with a 422 naming the field, and changes nothing; names people write are taken in one form', async () => {
    const list = async () => (await agent.api('/api/ssl-certificates')).json();
    const first = await watch('127.0.0.1', await closedPort());
    const before = await list();
    const refused: Array<[string, unknown, string]> = [
      ['https://x/', { hostname: 'https://x/' }, 'hostname'],
      ['a port inside', { hostname: 'example.com:8443' }, 'hostname'],
      ['a space inside', { hostname: 'exa mple.com' }, 'hostname'],
      ['a control character', { hostname: 'exa\u0000mple.com' }, 'hostname'],
      ['a bidi override', { hostname: '\u202eexample.com' }, 'hostname'],
      ['300 characters', { hostname: 'a'.repeat(300) }, 'hostname'],
      ['an empty string', { hostname: '' }, 'hostname'],
      ['a zone id with a space', { hostname: 'fe80::1%eth 0' }, 'hostname'],
      ['port 0', { hostname: 'example.com', port: 0 }, 'port'],
      ['port 65536', { hostname: 'example.com', port: 65_536 }, 'port'],
      ['port "443"', { hostname: 'example.com', port: '443' }, 'port'],
      ['a huge channel id', { hostname: 'example.com', channel_ids: [1e300] }, 'channel_ids.0'],
    ];
    for (const [what, body, field] of refused) {
      const response = await agent.api('/api/ssl-certificates', { method: 'POST', json: body });
      expect(response.status, what).toBe(422);
      expect(Object.keys((await response.json()).errors), what).toEqual([field]);
    }
    for (const [path, method, body, status, as] of [
      [`/api/ssl-certificates/${first.id}`, 'PATCH', { hostname: 'x.example' }, 422],
      [`/api/ssl-certificates/${first.id}`, 'PATCH', { channel_ids: [99_999_999] }, 422],
      ['/api/ssl-certificates/99999999999999999999', 'PATCH', { channel_ids: null }, 404],
      ['/api/ssl-certificates/9007199254740993', 'DELETE', undefined, 404],
      ['/api/ssl-certificates/9007199254740993/check', 'POST', undefined, 404],
      [`/api/ssl-certificates/${first.id}`, 'DELETE', undefined, 404, agent.tokenFor(2)],
    ] as Array<[string, string, unknown, number, string?]>) {
      expect((await agent.api(path, { method, json: body, token: as })).status, `${method} ${path}`).toBe(status);
    }
    expect(await list()).toEqual(before);

    // Taken, in one form: a second spelling of the same host and port is the duplicate it is.
    const port = await closedPort();
    const idn = await watch('BÜCHER.example.', port);
    expect(idn.hostname).toBe('xn--bcher-kva.example');
    const again = await agent.api('/api/ssl-certificates', { method: 'POST', json: { hostname: 'xn--BCHER-kva.example', port } });
    expect(again.status).toBe(422);
  });
});
