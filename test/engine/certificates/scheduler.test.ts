import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../../agent/db/store';
import { DAY_MS } from '../../../agent/domain/certificates/status';
import { AgentEvents, type AgentEvent } from '../../../agent/engine/events';
import { TlsCertificateChecker, type CertificateCheck } from '../../../agent/engine/certificates/checker';
import { CHECK_INTERVAL_MS, CONFIRM_UNREACHABLE_MS, CertificateScheduler } from '../../../agent/engine/certificates/scheduler';
import { RecordingNotifier } from '../../helpers/recordingNotifier';
import { tempDir, TIMESTAMP } from '../../helpers/testAgent';
import { closedPort, daysFromNow, makeCa, makeLeaf, startSilentServer, startTlsServer, type RunningServer, type TestCa } from './tls-fixtures';

let ca: TestCa;
let dir: string;
let store: Store;
let notifier: RecordingNotifier;
let events: AgentEvent[];
let now: number;
let scheduler: CertificateScheduler;
const servers: RunningServer[] = [];

beforeAll(() => {
  ca = makeCa();
});

beforeEach(() => {
  dir = tempDir();
  now = Date.now();
  store = openStore(join(dir, 'cronbeat.sqlite'), now);
  notifier = new RecordingNotifier();
  const bus = new AgentEvents();
  events = [];
  bus.subscribe((event) => events.push(event));
  scheduler = new CertificateScheduler({
    store,
    // All the time a busy machine needs for a handshake: the tests with silent servers make their own.
    checker: new TlsCertificateChecker({ extraCa: ca.certPem, timeoutMs: 10_000 }),
    notifier,
    events: bus,
    clock: () => now,
  });
});

afterEach(async () => {
  await scheduler.stop();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

// Valid from three days back: a test that sets its clock back a day still reads it as valid (from one day back,
// a certificate made a second after the test's clock was read was "not yet valid" there).
async function tlsServer(notAfterDays = 90) {
  const server = await startTlsServer(makeLeaf({ ca, notBefore: daysFromNow(-3), notAfter: daysFromNow(notAfterDays) }));
  servers.push(server);
  return server;
}

function watch(port: number, hostname = 'localhost', warnDays = 14) {
  return store.certificates.create({ companyId: 1, hostname, port, warnDays, now });
}

function notifications() {
  return store.notifications.page(1, 100, 0).reverse(); // oldest first
}

describe('CertificateScheduler', () => {
  it('checks a new certificate and tells about its first status, field by field as the spec lists them', async () => {
    const server = await tlsServer();
    const created = watch(server.port);
    expect(created.status).toBe('pending');
    const checked = (await scheduler.checkNow(created.id))!;

    expect(checked).toMatchObject({ status: 'valid', last_error: null, last_checked_at: now, reminder_days: null });
    expect(checked.next_check_at).toBe(now + CHECK_INTERVAL_MS);
    expect(checked.issuer).toBe('O=Cronbeat Tests, CN=Cronbeat Test Root CA');
    expect(checked.expires_at).toBeGreaterThan(now + 89 * DAY_MS);

    const [notification] = notifications();
    expect(notification.type).toBe('App\\Notifications\\SslCertificateNotification');
    expect(notification.notifiable_type).toBe('App\\Models\\Company');
    expect(notification.notifiable_id).toBe(1);
    const data = notification.data as unknown as Record<string, unknown>;
    expect(Object.keys(data)).toEqual([
      'type',
      'type_id',
      'project_id',
      'status',
      'title',
      'description',
      'timezone',
      'icon',
      'ssl_certificate_hostname',
      'ssl_certificate_port',
      'ssl_certificate_expires_at',
      'ssl_certificate_status',
      'ssl_certificate_last_checked_at',
    ]);
    expect(data.type).toBe('ssl_certificate');
    expect(data.type_id).toBe(created.id);
    expect(data.project_id).toBeNull();
    expect(data.status).toBe('valid');
    expect(data.title).toBe(`Certificate valid: localhost:${server.port}`);
    expect(data.description).toMatch(
      new RegExp(`^The certificate of localhost:${server.port} is valid until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, issued by O=Cronbeat Tests, CN=Cronbeat Test Root CA\\.$`),
    );
    expect(data.timezone).toBe('UTC');
    expect(data.icon).toBe('fa-solid fa-lock');
    expect(data.ssl_certificate_hostname).toBe('localhost');
    expect(data.ssl_certificate_port).toBe(server.port);
    expect(data.ssl_certificate_expires_at).toMatch(TIMESTAMP);
    expect(Date.parse(data.ssl_certificate_expires_at as string)).toBe(checked.expires_at);
    expect(data.ssl_certificate_status).toBe('valid');
    expect(data.ssl_certificate_last_checked_at).toMatch(TIMESTAMP);
    expect(Date.parse(data.ssl_certificate_last_checked_at as string)).toBe(now);

    expect(notifier.popups).toEqual([]); // valid is good news: listed, not popped up
    expect(events).toEqual([
      { type: 'certificate.changed', companyId: 1, certificateId: created.id },
      { type: 'notification.created', companyId: 1, notificationId: notification.id },
    ]);
  });

  it('checks again on time after the clock was set back: a check planned by a clock a day ahead is due', async () => {
    const { id } = watch((await tlsServer()).port);
    await scheduler.checkNow(id);
    now -= DAY_MS; // NTP corrects a clock that ran a day ahead
    expect(await scheduler.checkDue()).toHaveLength(1);
    expect(store.certificates.findLive(id)).toMatchObject({ last_checked_at: now, next_check_at: now + CHECK_INTERVAL_MS });
    expect(await scheduler.checkDue()).toHaveLength(0);
  });

  it('does not repeat itself when a check finds the same status', async () => {
    const { id } = watch((await tlsServer()).port);
    await scheduler.checkNow(id);
    now += CHECK_INTERVAL_MS;
    const again = (await scheduler.checkNow(id))!;
    expect(again.last_checked_at).toBe(now);
    expect(notifications()).toHaveLength(1);
  });

  it('tells about a renewal (new fingerprint), even when the status stays valid', async () => {
    const server = await tlsServer(60);
    const { id } = watch(server.port);
    const before = (await scheduler.checkNow(id))!;
    now += 1000;
    server.serve(makeLeaf({ ca, notAfter: daysFromNow(120) }));
    const after = (await scheduler.checkNow(id))!;
    expect(after.fingerprint_sha256).not.toBe(before.fingerprint_sha256);
    const renewal = notifications()[1].data;
    expect(renewal).toMatchObject({ status: 'valid', icon: 'fa-solid fa-rotate', title: `Certificate renewed: localhost:${server.port}` });
    expect(renewal.description).toMatch(/serves a new certificate\. The certificate of .* is valid until/);
    expect(notifier.popups).toEqual([]);
  });

  it('warns when expiry comes near, reminds once at 7 and at 1 day left, then tells it expired', async () => {
    const { id } = watch((await tlsServer(90)).port);
    const start = Date.now();
    const checkAt = async (days: number) => {
      now = start + days * DAY_MS;
      return (await scheduler.checkNow(id))!.status;
    };
    expect(await checkAt(0)).toBe('valid');
    expect(await checkAt(80)).toBe('expiring'); // 10 days left, warn_days 14
    expect(await checkAt(81)).toBe('expiring');
    expect(await checkAt(83.5)).toBe('expiring'); // 6.5 days left: the 7-day reminder
    expect(await checkAt(84)).toBe('expiring');
    expect(await checkAt(89.5)).toBe('expiring'); // half a day left: the 1-day reminder
    expect(await checkAt(89.7)).toBe('expiring');
    expect(await checkAt(91)).toBe('expired');
    expect(await checkAt(92)).toBe('expired');

    const titles = notifications().map((n) => n.data.title);
    expect(titles).toEqual([
      expect.stringMatching(/^Certificate valid: /),
      expect.stringMatching(/^Certificate expires in 10 days: /),
      expect.stringMatching(/^Certificate expires in 7 days: /),
      expect.stringMatching(/^Certificate expires in 1 day: /),
      expect.stringMatching(/^Certificate expired: /),
    ]);
    expect(notifications().map((n) => n.data.status)).toEqual(['valid', 'expiring', 'expiring', 'expiring', 'expired']);
    expect(notifier.popups.map((p) => p.title)).toEqual(titles.slice(1));
    expect(notifier.popups.every((p) => p.route === '/certificates')).toBe(true);
  });

  it('calls a closed port unreachable, with a popup, told as Cronbeat\'s own "unreadable" kind (no expiry to give the spec\'s)', async () => {
    const { id } = watch(await closedPort(), '127.0.0.1');
    const checked = (await scheduler.checkNow(id))!;
    expect(checked).toMatchObject({ status: 'unreachable', last_error: 'Connection refused', expires_at: null });
    const [notification] = notifications();
    expect(notification.type).toBe('App\\Notifications\\SslCertificateUnreadableNotification');
    expect(notification.data).toMatchObject({
      status: 'unreachable',
      ssl_certificate_status: 'unreachable',
      ssl_certificate_expires_at: null,
      icon: 'fa-solid fa-plug-circle-xmark',
    });
    expect(notification.data.description).toMatch(/could not be checked: Connection refused\.$/);
    expect(notifier.take()).toHaveLength(1);
  });

  it('keeps the last certificate seen while the host is unreachable, and tells about the recovery', async () => {
    const server = await tlsServer();
    const { id } = watch(server.port);
    const seen = (await scheduler.checkNow(id))!;
    await server.close();
    now += 1000;
    const down = (await scheduler.checkNow(id))!;
    expect(down.status).toBe('unreachable');
    expect(down.fingerprint_sha256).toBe(seen.fingerprint_sha256);
    expect(down.expires_at).toBe(seen.expires_at);
    expect(notifier.take().map((p) => p.title)).toEqual([expect.stringMatching(/^Certificate check failed: /)]);
    // Once a certificate was read, an unreachable host is the spec's kind, with the last expiry seen.
    const unreachable = notifications().at(-1)!;
    expect(unreachable.type).toBe('App\\Notifications\\SslCertificateNotification');
    expect(unreachable.data).toMatchObject({ status: 'unreachable', ssl_certificate_expires_at: new Date(seen.expires_at!).toISOString().replace('Z', '000Z') });
  });

  it('confirms a scheduled check that suddenly cannot connect 5 minutes later before telling', async () => {
    const server = await tlsServer();
    const { id } = watch(server.port);
    await scheduler.checkDue();
    await server.close();
    now += CHECK_INTERVAL_MS;
    const suspect = (await scheduler.checkDue())[0]!;
    expect(suspect).toMatchObject({ status: 'valid', next_check_at: now + CONFIRM_UNREACHABLE_MS });
    expect(notifications()).toHaveLength(1);
    now += CONFIRM_UNREACHABLE_MS;
    const confirmed = (await scheduler.checkDue())[0]!;
    expect(confirmed).toMatchObject({ id, status: 'unreachable', last_error: 'Connection refused' });
    expect(notifications().map((n) => n.data.status)).toEqual(['valid', 'unreachable']);
    expect(notifier.take()).toHaveLength(1);
  });

  it('drops a suspicion when the host answers again', async () => {
    const leaf = makeLeaf({ ca });
    const server = await startTlsServer(leaf);
    const { id } = watch(server.port);
    await scheduler.checkDue();
    await server.close();
    now += CHECK_INTERVAL_MS;
    await scheduler.checkDue();
    const back = await startTlsServer(leaf, server.port);
    servers.push(back);
    now += CONFIRM_UNREACHABLE_MS;
    expect((await scheduler.checkDue())[0]).toMatchObject({ id, status: 'valid', next_check_at: now + CHECK_INTERVAL_MS });
    expect(notifications()).toHaveLength(1);
  });

  it('starts by catching up on what became due while it was not running', async () => {
    const { id } = watch((await tlsServer()).port);
    scheduler.start();
    await vi.waitFor(() => expect(store.certificates.find(1, id)!.status).toBe('valid'));
  });

  it('logs instead of crashing when the database cannot be read', () => {
    const lines: string[] = [];
    const broken = new CertificateScheduler({
      store,
      checker: new TlsCertificateChecker(),
      notifier,
      events: new AgentEvents(),
      clock: () => now,
      log: (line) => lines.push(line),
    });
    store.close();
    expect(() => broken.start()).not.toThrow();
    expect(lines).toEqual([expect.stringMatching(/^certificate checks: .*database connection is not open/)]);
    void broken.stop();
    store = openStore(join(dir, 'cronbeat.sqlite'), now); // for afterEach
  });

  it('checks what is due, and only that', async () => {
    const due = watch((await tlsServer()).port);
    const later = watch((await tlsServer()).port);
    store.certificates.recordCheck({
      id: later.id, status: 'valid', expiresAt: null, validFrom: null, issuer: null, subject: null,
      fingerprintSha256: null, lastError: null, reminderDays: null, now, nextCheckAt: now + 1000,
    });
    const checked = await scheduler.checkDue();
    expect(checked.map((row) => row?.id)).toEqual([due.id]);
    expect(await scheduler.checkDue()).toEqual([]); // next one is 6 h away
  });

  it('drops the result of a certificate deleted during its check', async () => {
    const { id } = watch((await tlsServer()).port);
    const pending = scheduler.checkNow(id);
    store.certificates.delete(1, id, now);
    expect(await pending).toBeNull();
    expect(notifications()).toEqual([]);
  });

  it('runs at most 4 scheduled checks at once, and an on-demand check at once beside them', async () => {
    // The real checker, counted: how many checks are under way, and in which order they start.
    const real = new TlsCertificateChecker({ extraCa: ca.certPem, timeoutMs: 300 });
    // The one certificate that answers has all the time a busy machine needs for its handshake.
    const patient = new TlsCertificateChecker({ extraCa: ca.certPem, timeoutMs: 10_000 });
    let fastPort = 0;
    let active = 0;
    let most = 0;
    let activeScheduled = 0;
    let mostScheduled = 0;
    const started: number[] = [];
    const counting: CertificateCheck = {
      async check(hostname, port, signal) {
        started.push(port);
        most = Math.max(most, ++active);
        if (port !== fastPort) mostScheduled = Math.max(mostScheduled, ++activeScheduled);
        try {
          return await (port === fastPort ? patient : real).check(hostname, port, signal);
        } finally {
          active--;
          if (port !== fastPort) activeScheduled--;
        }
      },
    };
    const limited = new CertificateScheduler({ store, checker: counting, notifier, events: new AgentEvents(), clock: () => now });
    // Six certificates on silent ports: each check holds its slot for the 300 ms timeout.
    const silent = await Promise.all(Array.from({ length: 6 }, () => startSilentServer()));
    servers.push(...silent);
    for (const server of silent) watch(server.port, '127.0.0.1');
    const fast = await tlsServer();
    fastPort = fast.port;
    const urgent = watch(fast.port);
    store.certificates.recordCheck({
      id: urgent.id, status: 'pending', expiresAt: null, validFrom: null, issuer: null, subject: null,
      fingerprintSha256: null, lastError: null, reminderDays: null, now, nextCheckAt: now + 1000,
    });
    const scheduled = limited.checkDue();
    const onDemand = limited.checkNow(urgent.id);
    expect((await onDemand)!.status).toBe('valid');
    expect((await scheduled).map((row) => row!.status)).toEqual(Array(6).fill('unreachable'));
    expect(mostScheduled).toBe(4);
    // Not behind the silent hosts' slots: it started while all four were taken, ahead of the last two scheduled.
    expect(most).toBe(5);
    expect(started.indexOf(fast.port)).toBe(4);
    await limited.stop();
  });

  it('starts at once a queued scheduled check someone asks for', async () => {
    const real = new TlsCertificateChecker({ extraCa: ca.certPem, timeoutMs: 200 });
    const patient = new TlsCertificateChecker({ extraCa: ca.certPem, timeoutMs: 10_000 });
    let fastPort = 0;
    const started: number[] = [];
    const recording: CertificateCheck = {
      check(hostname, port, signal) {
        started.push(port);
        return (port === fastPort ? patient : real).check(hostname, port, signal);
      },
    };
    const single = new CertificateScheduler({ store, checker: recording, notifier, events: new AgentEvents(), clock: () => now, concurrency: 1 });
    const [first, second] = await Promise.all([startSilentServer(), startSilentServer()]);
    servers.push(first, second);
    const fast = await tlsServer();
    fastPort = fast.port;
    watch(first.port, '127.0.0.1');
    watch(second.port, '127.0.0.1');
    const asked = watch(fast.port);
    const scheduled = single.checkDue();
    expect((await single.checkNow(asked.id))!.status).toBe('valid');
    await scheduled;
    expect(started).toEqual([first.port, fast.port, second.port]);
    await single.stop();
  });

  it('cancels checks under way when stopped', async () => {
    const silent = await startSilentServer();
    servers.push(silent);
    const slow = new CertificateScheduler({
      store,
      checker: new TlsCertificateChecker({ timeoutMs: 60_000 }),
      notifier,
      events: new AgentEvents(),
      clock: () => now,
    });
    const { id } = watch(silent.port, '127.0.0.1');
    const pending = slow.checkNow(id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await slow.stop();
    expect(await pending).toBeNull();
    expect(store.certificates.find(1, id)!.status).toBe('pending');
  });
});
