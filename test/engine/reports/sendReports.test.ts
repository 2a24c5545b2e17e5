import { afterEach, describe, expect, it } from 'vitest';
import { Receiver, type Answer } from '../../helpers/receiver';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { discordLike, discordRefusal, parseTelegramHtml, slackLike, slackRefusal, telegramLike } from '../../helpers/chatServices';
import { tempDir } from '../../helpers/testAgent';
import { sendDueReports } from '../../../agent/engine/reports/sendReports';
import { REPORT_NOTIFICATION_TYPE } from '../../../agent/domain/alerts/notificationKinds';
import { at } from '../engineFixture';
import { deliveryFixture } from '../delivery/deliveryFixture';

/*
 * Reports through the outbox to real local receivers, the clock passed in: a daily report goes
 * out once after its time, is neither repeated nor skipped across a restart, and never when off.
 */

let fixture: ReturnType<typeof deliveryFixture> | undefined;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await fixture?.close();
  fixture = undefined;
});

async function receiver(answer: Answer = { status: 200, body: 'ok' }) {
  const r = await new Receiver([answer]).start();
  stops.push(() => r.stop());
  return r;
}

const ctx = (f: NonNullable<typeof fixture>) => ({ store: f.store, events: f.events, adminZone: 'UTC' });
const reportRows = (f: NonNullable<typeof fixture>) =>
  f.store.db.prepare('SELECT count(*) FROM notifications WHERE type = ?').pluck().get(REPORT_NOTIFICATION_TYPE) as number;

describe('daily reports', () => {
  it('go out once after their time, not twice across a restart, not when off, and the numbers are the period’s', async () => {
    const dir = tempDir('cronbeat-reports-');
    const start = at('2026-11-25T10:00:00Z');
    fixture = deliveryFixture(start, {}, dir);
    const hook = await receiver();
    const quiet = await receiver();
    const daily = fixture.channel('webhook', { url: `${hook.url}/hook`, secret: 'x'.repeat(16), report: 'daily', report_time: '08:00', report_timezone: 'UTC' });
    fixture.channel('webhook', { url: `${quiet.url}/hook`, secret: 'x'.repeat(16) }, null, 'no reports');
    const backup = fixture.monitor({ name: 'backup', schedule: '0 * * * *', duration: 5, now: start });
    const never = fixture.monitor({ name: 'never-runs', schedule: '0 3 * * *', duration: 5, now: start });

    // Turned on at 10:00: the first report covers the next whole day, from the 25th 08:00.
    expect(await sendDueReports(ctx(fixture), start)).toBe(0);
    // Runs on the 25th: two good, one failed (exit 2, 3 min), recovered by the next.
    await fixture.pulse(backup.token, at('2026-11-25T11:00:00Z'), { kind: 'success', measuredDurationMs: 60_000 });
    await fixture.pulse(backup.token, at('2026-11-25T12:00:00Z'), { kind: 'fail', exitCode: 2, measuredDurationMs: 180_000 });
    await fixture.pulse(backup.token, at('2026-11-25T13:00:00Z'), { kind: 'success', measuredDurationMs: 30_000 });

    expect(await sendDueReports(ctx(fixture), at('2026-11-26T07:59:59Z'))).toBe(0);
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:00:00Z'))).toBe(1);
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:00:30Z'))).toBe(0);

    // A restart on the same data folder: the period is not sent again.
    fixture.store.close();
    fixture = deliveryFixture(at('2026-11-26T08:05:00Z'), {}, dir);
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:05:00Z'))).toBe(0);
    expect(reportRows(fixture)).toBe(1);
    // Down over the next report time: it goes out when the agent is back.
    expect(await sendDueReports(ctx(fixture), at('2026-11-27T09:30:00Z'))).toBe(1);
    expect(reportRows(fixture)).toBe(2);

    fixture.clock.now = at('2026-11-27T09:30:00Z');
    // One send at a time per channel: a pass each.
    for (let pass = 0; pass < 6; pass++) await fixture.worker.runDue();
    expect(fixture.deliveries().map((d) => d.status)).toEqual(Array(6).fill('sent'));
    // Both channels had the failed run's alert and its recovery; only the one that asked had reports.
    const reports = (r: Receiver) => r.requests.filter((q) => q.headers['x-cronbeat-event'] === 'report');
    expect(reports(quiet)).toHaveLength(0);
    expect(quiet.requests).toHaveLength(2);
    expect(reports(hook)).toHaveLength(2);
    const first = JSON.parse(reports(hook)[0]!.body);
    expect(first).toMatchObject({
      schema: 'cronbeat.report.v1',
      frequency: 'daily',
      from: '2026-11-25T08:00:00.000000Z',
      to: '2026-11-26T08:00:00.000000Z',
      totals: { monitors: 2, runs: 3, failures: 1, never_ran: 1 },
      never_ran: [{ id: never.id, name: 'never-runs' }],
    });
    const line = first.monitors.find((m: { name: string }) => m.name === 'backup');
    // Made at 10:00 and failed from 12:00 to 13:00: 21 of its 22 hours in the period were up.
    expect(line).toMatchObject({ runs: 3, failures: 1, missed: 0, longest_run_ms: 180_000, uptime_percent: 95.45, downtime_ms: 3_600_000 });
    const second = JSON.parse(reports(hook)[1]!.body);
    expect(second).toMatchObject({ from: '2026-11-26T08:00:00.000000Z', to: '2026-11-27T08:00:00.000000Z', totals: { runs: 0 } });
    const reportChannels = fixture.store.db.prepare('SELECT channel_id FROM deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.type = ?');
    expect(reportChannels.pluck().all(REPORT_NOTIFICATION_TYPE)).toEqual([daily.id, daily.id]);
    // Reports are no notification to list or follow.
    expect(fixture.store.notifications.count(1)).toBe(fixture.store.notifications.page(1, 100, 0).length);
    expect(fixture.store.notifications.page(1, 100, 0).some((n) => n.type === REPORT_NOTIFICATION_TYPE)).toBe(false);
  });

  it('a report due in quiet hours waits for their end, as alerts do', async () => {
    const start = at('2026-11-25T10:00:00Z');
    fixture = deliveryFixture(start);
    const hook = await receiver();
    fixture.channel('webhook', { url: `${hook.url}/hook`, secret: 'x'.repeat(16), report: 'daily', report_time: '06:00', report_timezone: 'UTC' }, { start: '22:00', end: '07:00', timezone: 'UTC' });
    fixture.monitor({ name: 'backup', schedule: '0 12 * * *', duration: 5, now: start });
    await sendDueReports(ctx(fixture), start);
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T06:00:00Z'))).toBe(1);
    fixture.clock.now = at('2026-11-26T06:00:00Z');
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(0);
    expect(fixture.deliveries()[0]!.next_attempt_at).toBe(at('2026-11-26T07:00:00Z'));
    fixture.clock.now = at('2026-11-26T07:00:00Z');
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(1);
  });

  it('a new report time repeats no day just reported: moved later, the next report comes at it the next day', async () => {
    const start = at('2026-11-25T10:00:00Z');
    fixture = deliveryFixture(start);
    const hook = await receiver();
    const settings = { url: `${hook.url}/hook`, secret: 'x'.repeat(16), report: 'daily', report_time: '08:00', report_timezone: 'UTC' };
    const channel = fixture.channel('webhook', settings);
    fixture.monitor({ name: 'backup', schedule: '0 12 * * *', duration: 5, now: start });
    const setTime = (time: string, now: number) =>
      fixture!.store.channels.update(1, channel.id, { name: channel.name, settings: { ...settings, report_time: time }, quietHours: null, remindEveryHours: null }, now);
    const periods = () =>
      (fixture!.store.db.prepare('SELECT data FROM notifications WHERE type = ? ORDER BY created_at').pluck().all(REPORT_NOTIFICATION_TYPE) as string[]).map((data) => {
        const report = JSON.parse(data) as { from: number; to: number };
        return `${new Date(report.from).toISOString().slice(5, 16)} – ${new Date(report.to).toISOString().slice(5, 16)}`;
      });
    await sendDueReports(ctx(fixture), start);
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:00:00Z'))).toBe(1);
    // At 08:30 the admin moves it to 09:00: the day to 09:00 was all but reported half an hour ago.
    setTime('09:00', at('2026-11-26T08:30:00Z'));
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T09:00:00Z'))).toBe(0);
    expect(await sendDueReports(ctx(fixture), at('2026-11-27T09:00:00Z'))).toBe(1);
    // Moved earlier, to 07:00: the next report comes at 07:00, its first two hours told twice rather than a day left out.
    setTime('07:00', at('2026-11-27T10:00:00Z'));
    expect(await sendDueReports(ctx(fixture), at('2026-11-28T07:00:00Z'))).toBe(1);
    expect(periods()).toEqual(['11-25T08:00 – 11-26T08:00', '11-26T09:00 – 11-27T09:00', '11-27T07:00 – 11-28T07:00']);
  });
});

describe('many monitors', () => {
  it('counts the runs of monitors far apart in id, read a page of monitors at a time', async () => {
    const start = at('2026-11-25T10:00:00Z');
    fixture = deliveryFixture(start);
    const hook = await receiver();
    fixture.channel('webhook', { url: `${hook.url}/hook`, secret: 'x'.repeat(16), report: 'daily', report_time: '08:00', report_timezone: 'UTC' });
    const monitors = fixture.store.db.transaction(() =>
      Array.from({ length: 350 }, (_, i) => fixture!.monitor({ name: `job-${i + 1}`, schedule: '0 * * * *', duration: 60, now: start })),
    )();
    await sendDueReports(ctx(fixture), start);
    for (const [i, m] of [monitors[0]!, monitors[149]!, monitors[150]!, monitors[349]!].entries()) {
      await fixture.pulse(m.token, at('2026-11-25T11:00:00Z') + i * 1000, { measuredDurationMs: 1000 * (i + 1) });
    }
    // job-2 flapped: 600 failures and 600 recoveries 30 s apart from 12:00, read a page at a time.
    const flip = fixture.store.db.prepare(
      `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, read_at, created_at, updated_at)
       VALUES (@id, @type, 'App\\Models\\Company', 1, json_object('type', 'monitor', 'type_id', @monitorId), json_object('reason', json_object('kind', @reason)), @at, @at, @at)`,
    );
    fixture.store.db.transaction(() => {
      for (let i = 0; i < 1200; i++) {
        const failed = i % 2 === 0;
        flip.run({
          id: `flip-${String(i).padStart(4, '0')}`,
          type: failed ? 'App\\Notifications\\MonitorFailedNotification' : 'App\\Notifications\\MonitorRecoveredNotification',
          monitorId: monitors[1]!.id,
          reason: failed ? 'missed' : 'recovered',
          at: at('2026-11-25T12:00:00Z') + i * 30_000,
        });
      }
    })();
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:00:00Z'))).toBe(1);
    fixture.clock.now = at('2026-11-26T08:00:00Z');
    await fixture.worker.runDue();
    const report = JSON.parse(hook.requests.find((r) => r.headers['x-cronbeat-event'] === 'report')!.body);
    expect(report.totals).toMatchObject({ monitors: 350, runs: 4, never_ran: 346, missed: 600 });
    // Made at 10:00: 5 h failed of its 22 h.
    expect(report.monitors[0]).toMatchObject({ name: 'job-2', missed: 600, downtime_ms: 5 * 3_600_000, uptime_percent: 77.27 });
    const ran = report.monitors.filter((m: { runs: number }) => m.runs > 0).map((m: { name: string; longest_run_ms: number }) => [m.name, m.longest_run_ms]);
    expect(ran).toEqual([['job-1', 1000], ['job-150', 2000], ['job-151', 3000], ['job-350', 4000]]);
  });
});

describe('every kind', () => {
  it.each([3, 400])('reads a report of %i monitors within its service’s limits, the rest counted and linked', async (count) => {
    const start = at('2026-11-25T10:00:00Z');
    fixture = deliveryFixture(start);
    const slack = await receiver(slackLike);
    const discord = await receiver(discordLike);
    const telegram = await receiver(telegramLike);
    const ntfy = await receiver({ status: 200, body: '{}' });
    const smtp = await startSmtpReceiver();
    stops.push(smtp.stop);
    const report = { report: 'weekly', report_time: '09:00', report_timezone: 'Europe/Berlin' };
    fixture.channel('slack', { webhook_url: `${slack.url}/services/T/B/X`, ...report });
    fixture.channel('discord', { webhook_url: `${discord.url}/api/webhooks/1/abc`, ...report });
    fixture.channel('telegram', { bot_token: '1:A', chat_id: '42', api_url: telegram.url, ...report });
    fixture.channel('ntfy', { server_url: ntfy.url, topic: 'ops', ...report });
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cb@example.com', to: 'ops@example.com', ...report });
    const names = Array.from({ length: count }, (_, i) => `job-${i}-<!channel>&*_[x](https://evil.example)-${'𝔘'.repeat(20)}`);
    fixture.store.db.transaction(() => names.forEach((name) => fixture!.monitor({ name, schedule: '0 * * * *', duration: 5, now: start })))();
    await sendDueReports(ctx(fixture), start);
    // Monday 30 Nov 09:00 Berlin.
    const due = at('2026-11-30T08:00:00Z');
    expect(await sendDueReports(ctx(fixture), due)).toBe(5);
    fixture.clock.now = due;
    await fixture.worker.runDue();
    expect(fixture.deliveries().map((d) => d.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);

    const more = count > 3;
    const slackBody = JSON.parse(slack.requests[0]!.body);
    const discordBody = JSON.parse(discord.requests[0]!.body);
    expect(slackRefusal(slackBody)).toBeNull();
    const slackText = JSON.stringify(slackBody);
    expect(slackText).toContain(`Weekly report: ${count} monitors, none failing now`);
    expect(slackText).not.toContain('<!channel>');
    expect(slackText.includes('more monitors: <http://cronbeat.test:8787/#/monitors|the full list>')).toBe(more);
    // Each monitor has two lines here (never ran, and its numbers): the count left out is of monitors, never more than there are.
    for (const text of [slackText, JSON.stringify(discordBody)]) {
      const left = /and ([\d,]+) more monitors/.exec(text);
      if (left) expect(Number(left[1]!.replace(/,/g, ''))).toBeLessThan(count);
    }

    expect(discordRefusal(discordBody)).toBeNull();
    expect(discordBody.embeds[0].footer.text).toBe('Mon 23 Nov 09:00 – Mon 30 Nov 09:00 Europe/Berlin · Cronbeat report');
    expect(discordBody.embeds[0].description.includes('more monitors: http://cronbeat.test:8787/#/monitors')).toBe(more);

    const parsed = parseTelegramHtml(JSON.parse(telegram.requests[0]!.body).text);
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.text.length).toBeLessThanOrEqual(4096);
    expect(parsed.text).toContain('Never ran in this period');

    const ntfyBody = JSON.parse(ntfy.requests[0]!.body);
    expect(Buffer.byteLength(ntfyBody.message)).toBeLessThanOrEqual(4096);
    expect(ntfyBody).toMatchObject({ title: `Weekly report: ${count} monitors, none failing now`, priority: 3, click: 'http://cronbeat.test:8787/#/monitors' });

    const mail = smtp.mails[0]!.raw;
    expect(mail).toMatch(/Subject: REPORT \| Weekly report: \d+ monitors, none failing now/);
    expect(mail).toContain('Each monitor (worst first)');
  });
});
