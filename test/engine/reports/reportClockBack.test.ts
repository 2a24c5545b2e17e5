import { afterEach, describe, expect, it } from 'vitest';
import { sendDueReports } from '../../../agent/engine/reports/sendReports';
import { REPORT_NOTIFICATION_TYPE } from '../../../agent/domain/alerts/notificationKinds';
import { at, engineFixture } from '../engineFixture';

/*
 * Reports sent while the agent's clock ran a day ahead (a wrong date at boot), then set back by
 * NTP: the next report time on the true clock still brings its report, none is skipped.
 */

let fixture: ReturnType<typeof engineFixture> | undefined;
afterEach(() => {
  fixture?.close();
  fixture = undefined;
});

const ctx = (f: NonNullable<typeof fixture>) => ({ store: f.store, events: f.events, adminZone: 'UTC' });
const reported = (f: NonNullable<typeof fixture>) =>
  (f.store.db.prepare('SELECT data FROM notifications WHERE type = ? ORDER BY rowid').pluck().all(REPORT_NOTIFICATION_TYPE) as string[]).map((r) => {
    const { from, to } = JSON.parse(r) as { from: number; to: number };
    return [new Date(from).toISOString(), new Date(to).toISOString()];
  });
const settings = { url: 'http://127.0.0.1:9/hook', secret: 'x'.repeat(16), report: 'daily', report_time: '08:00', report_timezone: 'UTC' };

describe('daily reports across a clock set back', () => {
  it('the first report time after the correction sends its report, once', async () => {
    const start = at('2026-11-24T10:00:00Z');
    fixture = engineFixture(start);
    fixture.store.channels.create({ companyId: 1, name: 'ops', kind: 'webhook', settings, quietHours: null, now: start });
    fixture.monitor({ name: 'nightly', schedule: '0 3 * * *', duration: 10, now: start });
    expect(await sendDueReports(ctx(fixture), start)).toBe(0); // the first period starts now
    // The clock a day ahead on the 25th: it reports the day to "the 26th 08:00".
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:00:10Z'))).toBe(1);
    // Set back to the 25th 09:00: the report that went out covers a day that has not happened yet.
    expect(await sendDueReports(ctx(fixture), at('2026-11-25T09:00:00Z'))).toBe(0);
    // The 26th 08:00 on the true clock: its day is reported, then never again.
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T08:00:10Z'))).toBe(1);
    expect(await sendDueReports(ctx(fixture), at('2026-11-26T09:00:00Z'))).toBe(0);
    expect(await sendDueReports(ctx(fixture), at('2026-11-27T08:00:10Z'))).toBe(1);
    expect(reported(fixture)).toEqual([
      ['2026-11-25T08:00:00.000Z', '2026-11-26T08:00:00.000Z'],
      ['2026-11-25T08:00:00.000Z', '2026-11-26T08:00:00.000Z'],
      ['2026-11-26T08:00:00.000Z', '2026-11-27T08:00:00.000Z'],
    ]);
  });
});
