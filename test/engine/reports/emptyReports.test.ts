import { afterEach, describe, expect, it } from 'vitest';
import { sendDueReports } from '../../../agent/engine/reports/sendReports';
import { REPORT_NOTIFICATION_TYPE } from '../../../agent/domain/alerts/notificationKinds';
import { at, engineFixture } from '../engineFixture';

/*
 * A channel no monitor alerts gets no report: "0 monitors, none failing now" every morning is
 * noise (healthchecks.io sends none to an account without a pinged check). Its period still
 * counts as done, so the first monitor's report is the next period's, not a backlog.
 */

let fixture: ReturnType<typeof engineFixture> | undefined;
afterEach(() => {
  fixture?.close();
  fixture = undefined;
});

const ctx = (f: NonNullable<typeof fixture>) => ({ store: f.store, events: f.events, adminZone: 'UTC' });
const reports = (f: NonNullable<typeof fixture>) =>
  f.store.db.prepare('SELECT data FROM notifications WHERE type = ? ORDER BY rowid').pluck().all(REPORT_NOTIFICATION_TYPE) as string[];
const settings = { url: 'http://127.0.0.1:9/hook', secret: 'x'.repeat(16), report: 'daily', report_time: '08:00', report_timezone: 'UTC' };

describe('a report with no monitor in it', () => {
  it('is not sent, and the next one with a monitor covers only its own period', async () => {
    const start = at('2026-11-25T10:00:00Z');
    fixture = engineFixture(start);
    const mine = fixture.store.channels.create({ companyId: 1, name: 'ops', kind: 'webhook', settings, quietHours: null, now: start });
    const other = fixture.store.channels.create({ companyId: 1, name: 'other', kind: 'webhook', settings, quietHours: null, now: start });
    expect(await sendDueReports(ctx(fixture), start)).toBe(0);
    // The company's one monitor alerts only the other channel.
    const monitor = fixture.monitor({ name: 'nightly', schedule: '0 3 * * *', duration: 10, now: start });
    fixture.store.channelRoutes.setChannelIds(1, { type: 'monitor', id: monitor.id }, [other.id]);
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:00:00Z'))).toBe(1);
    expect(reports(fixture).map((r) => JSON.parse(r).totals.monitors)).toEqual([1]);
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:00:30Z'))).toBe(0);
    // Routed to both from the 26th 09:00: the next report of `mine` is the 27th's, with the monitor.
    fixture.store.channelRoutes.setChannelIds(1, { type: 'monitor', id: monitor.id }, [mine.id, other.id]);
    expect(await sendDueReports(ctx(fixture), at('2026-11-27T08:00:00Z'))).toBe(2);
    expect(reports(fixture).slice(1).map((r) => [JSON.parse(r).from, JSON.parse(r).totals.monitors])).toEqual([
      [at('2026-11-26T08:00:00Z'), 1],
      [at('2026-11-26T08:00:00Z'), 1],
    ]);
  });
});
