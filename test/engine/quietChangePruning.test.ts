import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { openStore, type Store } from '../../agent/db/store';
import { REPORT_NOTIFICATION_TYPE } from '../../agent/domain/alerts/notificationKinds';
import { QUIET_CHANGE_RETENTION_DAYS, quietChangesPruneBefore } from '../../agent/domain/alerts/quietChangeRetention';
import type { ReportData } from '../../agent/domain/reports/numbers';
import { startNotificationPruning } from '../../agent/engine/notificationPruning';
import { sendDueReports } from '../../agent/engine/reports/sendReports';
import { startTestAgent, tempDir } from '../helpers/testAgent';
import { at, engineFixture } from './engineFixture';

/*
 * Quiet changes (a monitor's changes between failed and fine that raised no notification:
 * flapping, alert after N) were never deleted: a flapping fleet grew the table for as long as the
 * agent ran, and a deleted monitor's stayed for good. They now go once no report can read them:
 * older than 93 days (the furthest back a report reads is a monthly one sent late, of the month
 * before last: 62 days), or their monitor deleted. The pruning timer of notifications takes them,
 * in batches.
 */

const NOW = at('2027-03-01T07:59:00Z');
const CUT = quietChangesPruneBefore(NOW);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let fixture: ReturnType<typeof engineFixture> | undefined;
afterEach(() => {
  fixture?.close();
  fixture = undefined;
});

/** `count` quiet changes of the monitor, a minute apart, the last at `last`, failed and recovered in turn. */
function plant(store: Store, companyId: number, monitorId: number, count: number, last: number): void {
  store.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < @count)
       INSERT INTO quiet_changes (company_id, monitor_id, at, kind, reason)
       SELECT @companyId, @monitorId, @last - i * 60000, CASE i % 2 WHEN 0 THEN 'recovered' ELSE 'failed' END, NULL FROM n`,
    )
    .run({ companyId, monitorId, count, last });
}

const times = (store: Store, monitorId: number) => store.db.prepare('SELECT at FROM quiet_changes WHERE monitor_id = ? ORDER BY at').pluck().all(monitorId) as number[];
const count = (store: Store, monitorId: number) => store.db.prepare('SELECT count(*) FROM quiet_changes WHERE monitor_id = ?').pluck().get(monitorId) as number;

/** Prunes on `store` with the clock at `now` until `done` holds; what it logged. */
async function pruneUntil(store: Store, now: number, done: () => boolean): Promise<string[]> {
  const logged: string[] = [];
  const stop = startNotificationPruning({ store, clock: () => now, log: (message) => logged.push(message) });
  try {
    await expect.poll(done, { timeout: 10_000 }).toBe(true);
  } finally {
    stop();
  }
  return logged;
}

describe('quiet changes', () => {
  it(`go once older than ${QUIET_CHANGE_RETENTION_DAYS} days, a batch at a time, in every company; younger ones stay`, { timeout: 30_000 }, async () => {
    const f = (fixture = engineFixture(NOW - 200 * DAY));
    f.store.companies.ensure(2, NOW);
    const mine = f.monitor({ name: 'flappy', schedule: '0 12 1 6 *', duration: 5 }).id;
    // More than two batches of old ones, ending a minute before the cut-off; one at the cut-off, and younger ones.
    plant(f.store, 1, mine, 1_234, CUT - MINUTE);
    plant(f.store, 1, mine, 3, CUT + 2 * MINUTE);
    plant(f.store, 2, 77, 5, CUT - DAY);
    plant(f.store, 2, 77, 2, NOW - DAY);
    expect(count(f.store, mine)).toBe(1_237);

    const logged = await pruneUntil(f.store, NOW, () => count(f.store, 77) === 2 && count(f.store, mine) === 3);
    expect(times(f.store, mine)).toEqual([CUT, CUT + MINUTE, CUT + 2 * MINUTE]);
    expect(times(f.store, 77)).toEqual([NOW - DAY - MINUTE, NOW - DAY]);
    expect(logged).toContain('Deleted 1239 quiet changes no report reads any more (past their retention, or of deleted monitors)');
  });

  it('of a deleted monitor go however young (a report lists live monitors only); a live one\'s stay', { timeout: 30_000 }, async () => {
    const f = (fixture = engineFixture(NOW - 30 * DAY));
    const live = f.monitor({ name: 'live', schedule: '0 12 1 6 *', duration: 5 }).id;
    const gone = f.monitor({ name: 'gone', schedule: '0 12 1 6 *', duration: 5 }).id;
    plant(f.store, 1, live, 40, NOW - DAY);
    plant(f.store, 1, gone, 1_100, NOW - DAY);
    expect(f.store.monitors.delete(1, gone, NOW - 12 * 60 * MINUTE)).toBe(true);

    await pruneUntil(f.store, NOW, () => count(f.store, gone) === 0);
    expect(count(f.store, live)).toBe(40);
  });

  it('a monthly report sent late, of the month before last, still counts every quiet failure of it', { timeout: 30_000 }, async () => {
    const start = at('2026-12-31T10:00:00Z');
    const f = (fixture = engineFixture(start));
    f.store.channels.create({
      companyId: 1,
      name: 'monthly',
      kind: 'webhook',
      settings: { url: 'http://127.0.0.1:9/hook', secret: 'x'.repeat(16), report: 'monthly', report_time: '08:00', report_timezone: 'UTC' },
      quietHours: null,
      now: start,
    });
    const ctx = { store: f.store, events: f.events, adminZone: 'UTC' };
    expect(await sendDueReports(ctx, start)).toBe(0); // turned on: its first report is January's
    // Due on 1 June only: only the job's pulses change it. It fails and recovers four times on 2 January,
    // ten minutes each: the fifth change flaps, the rest are quiet.
    const monitor = f.monitor({ name: 'flappy', schedule: '0 12 1 6 *', duration: 5, now: start });
    const pulses = ['01:00', '01:10', '01:20', '01:30', '01:40', '01:50', '02:00', '02:10'];
    for (const [i, time] of pulses.entries()) await f.pulse(monitor.token, at(`2027-01-02T${time}:00Z`), i % 2 === 0 ? { kind: 'fail', exitCode: 1 } : {});
    await f.step(at('2027-01-02T03:10:00Z'));
    expect(count(f.store, monitor.id)).toBeGreaterThan(0);
    const quiet = times(f.store, monitor.id);
    plant(f.store, 1, monitor.id, 1, CUT - MINUTE); // one no report reads

    // The agent was down through 1 February's report time and starts a minute before 1 March's: the
    // report due is January's, from 1 January 08:00, 58 days back. Pruning runs first, as at a start.
    await pruneUntil(f.store, NOW, () => !times(f.store, monitor.id).includes(CUT - MINUTE));
    expect(times(f.store, monitor.id)).toEqual(quiet);
    expect(await sendDueReports(ctx, NOW)).toBe(1);
    const report = JSON.parse(f.store.db.prepare('SELECT data FROM notifications WHERE type = ?').pluck().get(REPORT_NOTIFICATION_TYPE) as string) as ReportData;
    expect(report).toMatchObject({ from: at('2027-01-01T08:00:00Z'), to: at('2027-02-01T08:00:00Z') });
    // By hand: 01:00-01:10, 01:20-01:30, 01:40-01:50, 02:00-02:10 failed, 40 minutes.
    expect(report.monitors.find((m) => m.id === monitor.id)).toMatchObject({ runs: 8, failures: 4, downtime_ms: 40 * MINUTE });
  });

  it('are pruned by the agent at start', { timeout: 30_000 }, async () => {
    const dataDir = tempDir();
    const store = openStore(databaseFile(dataDir), NOW);
    plant(store, 1, 5, 3, CUT - DAY);
    plant(store, 1, 5, 1, NOW - DAY);
    store.close();
    const agent = await startTestAgent({ dataDir, clock: () => NOW });
    try {
      await expect.poll(() => times(agent.store, 5), { timeout: 10_000 }).toEqual([NOW - DAY]);
    } finally {
      await agent.stop();
    }
  });
});
