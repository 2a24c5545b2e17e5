import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../agent/db/store';
import { DAY_MS } from '../../../agent/domain/certificates/status';
import { AgentEvents } from '../../../agent/engine/events';
import { TlsCertificateChecker } from '../../../agent/engine/certificates/checker';
import { CertificateScheduler } from '../../../agent/engine/certificates/scheduler';
import { RecordingNotifier } from '../../helpers/recordingNotifier';
import { startTestAgent, tempDir } from '../../helpers/testAgent';
import { daysFromNow, makeCa, makeLeaf, startTlsServer, type RunningServer, type TestCa } from './tls-fixtures';

/*
 * A maintenance window holds a certificate's news as it holds a monitor's (docs/monitoring.md,
 * "Maintenance windows"): nothing inside it, then the check at its end tells once what is still news.
 * Real TLS servers and a real store; the clock is `now`.
 */

let ca: TestCa;
let dir: string;
let store: Store;
let notifier: RecordingNotifier;
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
  scheduler = new CertificateScheduler({ store, checker: new TlsCertificateChecker({ extraCa: ca.certPem, timeoutMs: 10_000 }), notifier, events: new AgentEvents(), clock: () => now });
});

afterEach(async () => {
  await scheduler.stop();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const HOUR = 3_600_000;
const titles = () => store.notifications.page(1, 100, 0).map((n) => n.data.title.replace(/:\d+$/, '')).reverse();
const window = (tags: string[], startsAt: number, endsAt: number) =>
  store.maintenanceWindows.create(1, { name: 'work', startsAt, endsAt, schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags }, now);

async function watchedServer(notAfterDays: number) {
  const good = makeLeaf({ ca, notBefore: daysFromNow(-3), notAfter: daysFromNow(notAfterDays) });
  const server = await startTlsServer(good);
  servers.push(server);
  const cert = store.certificates.create({ companyId: 1, hostname: 'localhost', port: server.port, warnDays: 14, now });
  await scheduler.checkNow(cert.id);
  return { server, good, cert };
}

describe('a certificate in a maintenance window', () => {
  it('expiring inside it alerts nothing there, and once at its end', async () => {
    const { cert } = await watchedServer(30);
    expect(titles()).toEqual(['Certificate valid: localhost']);
    // Work from a day before the expiry to an hour after it, for every monitor, server and certificate.
    const expiry = store.certificates.findLive(cert.id)!.expires_at!;
    window([], expiry - DAY_MS, expiry + HOUR);
    now = expiry - DAY_MS + 1;
    const inside = (await scheduler.checkNow(cert.id))!;
    now = expiry + 60_000;
    const expired = (await scheduler.checkNow(cert.id))!;
    // The certificate shows what the check found; no notification, no popup, and the next check at the end.
    expect(inside.status).toBe('expiring');
    expect(expired).toMatchObject({ status: 'expired', next_check_at: expiry + HOUR });
    expect(titles()).toEqual(['Certificate valid: localhost']);
    expect(notifier.popups).toHaveLength(0);
    now = expiry + HOUR;
    await scheduler.checkNow(cert.id);
    now += 6 * HOUR;
    await scheduler.checkNow(cert.id);
    expect(titles()).toEqual(['Certificate valid: localhost', 'Certificate expired: localhost']);
    expect(notifier.popups.map((p) => p.title.replace(/:\d+$/, ''))).toEqual(['Certificate expired: localhost']);
  });

  it('failing inside it and fixed before its end alerts nothing at all', async () => {
    const { server, good, cert } = await watchedServer(90);
    window([`certificate:localhost`], now, now + 2 * HOUR);
    // A self-signed certificate during the work, then the right one again.
    server.serve(makeLeaf({ notBefore: daysFromNow(-3), notAfter: daysFromNow(90) }));
    expect((await scheduler.checkNow(cert.id))!.status).toBe('invalid');
    server.serve(good);
    now += HOUR;
    expect((await scheduler.checkNow(cert.id))!.status).toBe('valid');
    now += HOUR;
    await scheduler.checkNow(cert.id);
    expect(titles()).toEqual(['Certificate valid: localhost']);
    expect(notifier.popups).toHaveLength(0);
  });

  it('is not held by a window for other hosts, and is checked again at the end of its own', async () => {
    const { server, cert } = await watchedServer(90);
    window(['certificate:example.com', 'server:db1'], now, now + 2 * HOUR);
    server.serve(makeLeaf({ notBefore: daysFromNow(-3), notAfter: daysFromNow(90) }));
    await scheduler.checkNow(cert.id);
    expect(titles()).toHaveLength(2);
    const ours = window(['certificate:localhost'], now, now + 2 * HOUR);
    server.serve(makeLeaf({ ca, names: ['other.test'], notBefore: daysFromNow(-3), notAfter: daysFromNow(90) }));
    now += 60_000;
    await scheduler.checkNow(cert.id);
    expect(titles()).toHaveLength(2);
    expect(store.certificates.findLive(cert.id)!.next_check_at).toBe(ours.ends_at);
  });
});

describe('a maintenance window ended early through the API', () => {
  it('has the certificates it held due at once, and their news told at that check', async () => {
    let clock = Date.now();
    const agent = await startTestAgent({ clock: () => clock, certificateChecks: { extraCa: ca.certPem, timeoutMs: 10_000 } });
    try {
      const good = makeLeaf({ ca, notBefore: daysFromNow(-3), notAfter: daysFromNow(90) });
      const server = await startTlsServer(good);
      servers.push(server);
      const cert = await (await agent.api('/api/ssl-certificates', { method: 'POST', json: { hostname: 'localhost', port: server.port } })).json();
      const window = await (await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'swap', starts_at: new Date(clock).toISOString(), ends_at: new Date(clock + 2 * HOUR).toISOString() } })).json();
      server.serve(makeLeaf({ notBefore: daysFromNow(-3), notAfter: daysFromNow(90) }));
      clock += 60_000;
      expect((await (await agent.api(`/api/ssl-certificates/${cert.id}/check`, { method: 'POST' })).json()).status).toBe('invalid');
      const count = async () => (await (await agent.api('/api/notifications?kinds=all')).json()).data.length as number;
      expect(await count()).toBe(1);
      expect(agent.store.certificates.findLive(cert.id)!.next_check_at).toBe(clock - 60_000 + 2 * HOUR);
      clock += 60_000;
      expect((await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'DELETE' })).status).toBe(204);
      expect(agent.store.certificates.findLive(cert.id)!.next_check_at).toBe(clock);
      // Due now: the scheduler's next look (within a minute) checks it, as this does, and tells the news once.
      await agent.api(`/api/ssl-certificates/${cert.id}/check`, { method: 'POST' });
      const [latest] = (await (await agent.api('/api/notifications?kinds=all')).json()).data;
      expect(latest.data.title.replace(/:\d+$/, '')).toBe('Certificate invalid: localhost');
      expect(await count()).toBe(2);
    } finally {
      await agent.stop();
    }
  });
});
