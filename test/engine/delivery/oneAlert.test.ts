import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { presentAlert, presentNotification } from '../../../agent/api/present/present';
import { recordCheck } from '../../../agent/engine/certificates/record';
import { raiseQuietServers, recordServerReport } from '../../../agent/engine/servers/quietServers';
import type { NotificationRow } from '../../../agent/db/notifications';
import { migrations } from '../../../agent/db/migrations';
import { Receiver } from '../../helpers/receiver';
import { rollBackTo } from '../../helpers/rollBack';
import { tempDir } from '../../helpers/testAgent';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';

/*
 * One alert, one road: a notification keeps its alert as data once; the API's notification words
 * were made from it when it was written, and every channel kind renders its own words from the
 * same stored alert when it is sent (the worker hands kinds the row's alert, never the API's
 * wire shape). Monitors, certificates and servers alike. Real receivers: HTTP and SMTP.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((stop) => stop()));
  await fixture?.close();
});

/** A webhook, a Slack and an email channel, each with its own real receiver. */
async function threeChannels() {
  const hook = await new Receiver().start();
  const slack = await new Receiver().start();
  const smtp = await startSmtpReceiver();
  cleanups.push(() => hook.stop(), () => slack.stop(), smtp.stop);
  fixture.channel('webhook', { url: `${hook.url}/in` });
  fixture.channel('slack', { webhook_url: `${slack.url}/services/T/B/X` });
  fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cronbeat@example.com', to: 'ops@example.com' });
  return {
    /** What each kind sent, as text a person reads (the webhook: its JSON). */
    async sent() {
      await fixture.worker.runDue();
      const webhook = JSON.parse(hook.requests.at(-1)!.body);
      const slackBody = JSON.parse(slack.requests.at(-1)!.body);
      const slackText = [slackBody.text, ...slackBody.blocks.map((b: { text?: { text: string }; elements?: Array<{ text: string }> }) => b.text?.text ?? b.elements![0].text)].join('\n');
      // Soft line breaks of quoted-printable, and headers folded onto a second line, undone.
      const mail = smtp.mails.at(-1)!.raw.replace(/=\r?\n/g, '').replace(/\r\n/g, '\n').replace(/\n (?=\S)/g, ' ');
      return { webhook, slack: slackText, email: mail };
    },
  };
}

const newest = (): NotificationRow => fixture.store.notifications.page(1, 1, 0)[0]!;

describe('one stored alert, rendered at each edge', () => {
  it('a missed run: the API, the webhook, Slack and email tell the same facts, all from the alert stored with the notification', async () => {
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'));
    const channels = await threeChannels();
    await fixture.failMonitor('nightly-backup');
    const row = newest();
    const sent = await channels.sent();

    // The data: stored once, shown by the API (kinds=all) and sent to the webhook as it is.
    expect(row.alert.reason.kind).toBe('missed');
    expect(presentAlert(row.alert)).toEqual(row.alert);
    expect(sent.webhook.reason).toEqual(row.alert.reason);
    expect(sent.webhook.monitor).toEqual(row.alert.monitor);
    expect(sent.webhook.expected_at).toEqual(row.alert.expected_at);

    // The words: each edge's own, of the same facts (the monitor, the run due, the grace), in one vocabulary.
    const reason = row.alert.reason as { expected_at: string; grace_minutes: number };
    const due = reason.expected_at.slice(11, 16); // HH:MM, UTC: the monitor's zone
    const api = presentNotification(row).data;
    expect(api.title).toBe('nightly-backup missed its run');
    expect(api.description).toBe(`Missed: the run due ${reason.expected_at.slice(0, 10)} ${due} UTC did not come (grace ${reason.grace_minutes} min); no run has come yet`);
    for (const words of [sent.webhook.title + ' ' + sent.webhook.text, sent.slack, sent.email]) {
      expect(words).toContain('nightly-backup');
      expect(words).toContain(`${due} UTC`);
      expect(words).toContain(`grace ${reason.grace_minutes} min`);
    }
    expect(sent.email).toMatch(/^Subject: MISSED \| nightly-backup$/m);
  });

  it('every kind renders the stored alert, not the words stored for the API: a fact changed in the stored alert is what each one says', async () => {
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'));
    const channels = await threeChannels();
    await fixture.failMonitor('nightly-backup');
    const row = newest();
    // What the worker reads: the stored alert, here with the monitor's name changed behind the API's back.
    fixture.store.db.prepare("UPDATE notifications SET alert = json_set(alert, '$.monitor.name', 'renamed-in-store') WHERE id = ?").run(row.id);
    const sent = await channels.sent();
    expect(presentNotification(newest()).data.title).toBe('nightly-backup missed its run');
    expect(sent.webhook.monitor.name).toBe('renamed-in-store');
    for (const words of [sent.webhook.title, sent.slack, sent.email]) {
      expect(words).toContain('renamed-in-store missed its run');
      expect(words).not.toContain('nightly-backup');
    }
  });

  it('a certificate takes the same road: a reason kind of its own, stored, and the same words in the API and every kind', async () => {
    const now = at('2026-11-21T10:00:00Z');
    fixture = deliveryFixture(now);
    const channels = await threeChannels();
    const cert = fixture.store.certificates.create({ companyId: 1, hostname: 'shop.example.com', port: 8443, warnDays: 21, now });
    const expiresAt = at('2026-12-01T10:00:00Z');
    const observation = {
      reachable: true as const,
      certificate: { validFrom: at('2026-09-01T00:00:00Z'), expiresAt, issuer: 'Example CA', subject: 'CN=shop.example.com', fingerprintSha256: 'AB:CD' },
      verifyError: null,
    };
    recordCheck(fixture, cert.id, observation, now, 3_600_000);
    const row = newest();
    expect(row.alert).toEqual({
      event: 'certificate',
      at: '2026-11-21T10:00:00.000000Z',
      reason: {
        kind: 'certificate',
        change: 'changed',
        hostname: 'shop.example.com',
        port: 8443,
        status: 'expiring',
        expires_at: '2026-12-01T10:00:00.000000Z',
        issuer: 'Example CA',
        last_error: null,
      },
      monitor: null,
      server: null,
      run: null,
      expected_at: null,
    });
    const api = presentNotification(row).data;
    expect(api).toMatchObject({
      title: 'Certificate expires in 10 days: shop.example.com:8443',
      description: 'The certificate of shop.example.com:8443 expires on 2026-12-01 10:00 UTC, issued by Example CA. Renew it before then.',
    });
    // The API's alert field stays as it was for kinds other than a monitor's.
    expect(presentAlert(row.alert)).toBeNull();
    const sent = await channels.sent();
    expect(sent.webhook).toMatchObject({ event: 'certificate', title: api.title, text: api.description, reason: row.alert.reason });
    expect(sent.slack).toContain(api.title);
    expect(sent.slack).toContain(api.description);
    expect(sent.email).toMatch(/^Subject: CERTIFICATE \| Certificate expires in 10 days: shop\.example\.com:8443$/m);
    expect(sent.email).toContain(api.description);
  });

  it('a server\'s quiet watcher takes the same road: its reason stored, its words the same everywhere', async () => {
    const now = at('2026-11-21T10:00:00Z');
    fixture = deliveryFixture(now);
    const channels = await threeChannels();
    const server = fixture.store.servers.create({ companyId: 1, name: 'Backup box', identifier: 'backup-01', ipAddress: '10.0.0.2', now });
    recordServerReport(fixture, server, { intervalSeconds: 60, jobs: 3 }, now);
    expect(raiseQuietServers(fixture, now + 4 * 60_000)).toBe(1);
    const row = newest();
    expect(row.alert.reason).toEqual({ kind: 'server_quiet', server_identifier: 'backup-01', last_report_at: '2026-11-21T10:00:00.000000Z', interval_seconds: 60 });
    expect(row.alert.server).toEqual({ id: server.id, name: 'Backup box' });
    const api = presentNotification(row).data;
    expect(api.title).toBe('Backup box went quiet');
    fixture.clock.now = now + 4 * 60_000;
    const sent = await channels.sent();
    expect(sent.webhook).toMatchObject({ event: 'server', title: api.title, text: api.description, reason: row.alert.reason });
    expect(sent.slack).toContain(api.title);
    expect(sent.email).toMatch(/^Subject: SERVER \| Backup box went quiet$/m);
    expect(sent.email).toContain('has not reported since 2026-11-21 10:00 UTC');
  });

  it("a server's watcher is told quiet and back in the admin's zone, with UTC beside it, and in words a popup or an email shows as they are", async () => {
    const now = at('2026-11-21T10:00:00Z');
    fixture = deliveryFixture(now, { adminZone: 'Europe/Paris' });
    const channels = await threeChannels();
    const ctx = { store: fixture.store, events: fixture.events, notifier: fixture.notifier, adminZone: 'Europe/Paris' };
    const server = fixture.store.servers.create({ companyId: 1, name: 'Backup box', identifier: 'backup-01', ipAddress: '10.0.0.2', now });
    recordServerReport(ctx, server, { intervalSeconds: 60, jobs: 3 }, now);
    expect(raiseQuietServers(ctx, now + 4 * 60_000)).toBe(1);
    const quiet = presentNotification(newest()).data;
    expect(quiet.description).toBe(
      'The crontab watcher of Backup box (backup-01) has not reported since 2026-11-21 11:00 Europe/Paris (10:00 UTC); it reports every minute. ' +
        'Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?',
    );
    expect(quiet.timezone).toBe('Europe/Paris');
    expect(fixture.notifier.take().map((popup) => popup.body)).toEqual([quiet.description]);
    fixture.clock.now = now + 4 * 60_000;
    const sent = await channels.sent();
    expect(sent.slack).toContain(quiet.description);
    expect(sent.email).toContain(quiet.description);

    recordServerReport(ctx, server, { intervalSeconds: 60, jobs: 3 }, now + 12 * 60_000);
    const back = presentNotification(newest()).data;
    expect(back.description).toBe('The crontab watcher of Backup box (backup-01) reported again at 2026-11-21 11:12 Europe/Paris (10:12 UTC), after 12 min without a report.');
    expect(fixture.notifier.take().map((popup) => popup.body)).toEqual([back.description]);
    fixture.clock.now = now + 12 * 60_000;
    expect((await channels.sent()).email).toContain(back.description);
  });

  it("a certificate's moments are told in the admin's zone with UTC beside them, in the notification, the popup and every channel; the webhook's text and fields stay UTC", async () => {
    const now = at('2026-11-21T10:00:00Z');
    fixture = deliveryFixture(now, { adminZone: 'Europe/Paris' });
    const channels = await threeChannels();
    const ctx = { store: fixture.store, events: fixture.events, notifier: fixture.notifier, adminZone: 'Europe/Paris' };
    const cert = fixture.store.certificates.create({ companyId: 1, hostname: 'shop.example.com', port: 443, warnDays: 21, now });
    const observation = {
      reachable: true as const,
      certificate: { validFrom: at('2026-09-01T00:00:00Z'), expiresAt: at('2026-11-20T23:30:00Z'), issuer: 'Example CA', subject: 'CN=shop.example.com', fingerprintSha256: 'AB:CD' },
      verifyError: null,
    };
    recordCheck(ctx, cert.id, observation, now, 3_600_000);
    const api = presentNotification(newest()).data;
    // 23:30 UTC is already the next day in Paris: both dates are said.
    expect(api.description).toBe('The certificate of shop.example.com expired on 2026-11-21 00:30 Europe/Paris (2026-11-20 23:30 UTC). Visitors now see a security warning.');
    expect(api.timezone).toBe('Europe/Paris');
    expect(api).toMatchObject({ ssl_certificate_expires_at: '2026-11-20T23:30:00.000000Z' });
    expect(fixture.notifier.take().map((popup) => popup.body)).toEqual([api.description]);
    const sent = await channels.sent();
    expect(sent.slack).toContain(api.description);
    expect(sent.email).toContain(api.description);
    expect(sent.webhook).toMatchObject({
      text: 'The certificate of shop.example.com expired on 2026-11-20 23:30 UTC. Visitors now see a security warning.',
      reason: { kind: 'certificate', expires_at: '2026-11-20T23:30:00.000000Z' },
    });
  });
});

describe('a notification stored before alerts were kept as data', () => {
  it('is given its own words as its alert on upgrade: still delivered, and presented, in the words it always had', async () => {
    const now = at('2026-11-21T10:00:00Z');
    const dir = tempDir();
    fixture = deliveryFixture(now, {}, dir);
    const hook = await new Receiver().start();
    cleanups.push(() => hook.stop());
    fixture.channel('webhook', { url: `${hook.url}/in` });
    const cert = fixture.store.certificates.create({ companyId: 1, hostname: 'old.example.com', port: 443, warnDays: 21, now });
    recordCheck(fixture, cert.id, { reachable: false, error: 'connect ECONNREFUSED' }, now, 3_600_000);
    const before = presentNotification(newest());
    await fixture.worker.stop();
    fixture.store.close(); // the folder stays, for the upgrade

    // As the release before left it: the notification and its pending delivery, with no alert.
    const version = migrations.findIndex((sql) => sql.includes("'reason', json_object('kind', 'other'"));
    rollBackTo(join(dir, 'cronbeat.sqlite'), version, 'UPDATE notifications SET alert = NULL;');
    fixture = deliveryFixture(now, {}, dir);
    expect(presentNotification(newest())).toEqual(before);
    await fixture.worker.runDue();
    const sent = JSON.parse(hook.requests[0]!.body);
    expect(sent).toMatchObject({
      event: 'certificate',
      title: 'Certificate check failed: old.example.com',
      text: 'old.example.com could not be checked: connect ECONNREFUSED.',
      reason: { kind: 'other', title: before.data.title, description: before.data.description },
      at: before.created_at,
    });
  });
});
