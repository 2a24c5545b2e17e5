import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { openStore } from '../../agent/db/store';
import type { ChannelKind } from '../../agent/contract/channels';
import { lastReportPeriod, type ReportSchedule } from '../../agent/domain/reports/period';
import { buildReportRequest } from '../../agent/engine/delivery/messages';
import { channelReport } from '../../agent/engine/reports/sendReports';
import { figure, type Figure } from './report';
import { seedDatabase } from './seed';
import { median, round, timeRuns } from './stats';

const MONITORS = 10_000;
const BASELINE_MONITORS = 1_000;
/** Runs a day each monitor reported (hourly jobs), one in ten failed. */
const RUNS_A_DAY = 24;
const DAY = 86_400_000;

const SETTINGS: Record<ChannelKind, Record<string, unknown>> = {
  webhook: { url: 'http://127.0.0.1:9/hook', secret: 'x'.repeat(32) },
  slack: { webhook_url: 'https://hooks.slack.com/services/T/B/X' },
  discord: { webhook_url: 'https://discord.com/api/webhooks/1/abc' },
  telegram: { bot_token: '1:A', chat_id: '42' },
  ntfy: { topic: 'ops' },
  email: { host: 'smtp.example.com', from: 'cb@example.com', to: 'ops@example.com', tls: 'starttls' },
};

/**
 * A data folder of `monitors` hourly monitors of company 1, made 40 days ago, with a day of runs
 * each (a success with its duration, one in ten a failure) and a failure notification a minute
 * for the last day, as the engine writes them.
 */
function seedReportData(dataDir: string, monitors: number, now: number): void {
  seedDatabase(dataDir, { monitors, monitorsOfCompany1: monitors, servers: 0, notifications: 0, now });
  const store = openStore(databaseFile(dataDir), now);
  try {
    store.db.transaction(() => {
      store.db.prepare('UPDATE monitors SET created_at = ?').run(now - 40 * DAY);
      store.db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @count - 1)
           INSERT INTO pulses (monitor_id, kind, exit_code, received_at, duration_ms, method)
           SELECT i % @monitors + 1, CASE WHEN i % 10 = 0 THEN 'fail' ELSE 'success' END, CASE WHEN i % 10 = 0 THEN 1 END,
                  @now - DAY_MS + (i / @monitors) * 3600000 + (i % 3600) * 1000, 1000 + (i * 7919) % 600000, 'GET'
           FROM n`.replace('DAY_MS', String(DAY)),
        )
        .run({ count: monitors * RUNS_A_DAY, monitors, now });
      store.db.prepare('UPDATE monitors SET pulses_kept = ?').run(RUNS_A_DAY);
      // A failure a minute over the day, about the monitors in turn.
      const failed = store.db.prepare(
        `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, created_at, updated_at)
         VALUES (lower(hex(randomblob(16))), 'App\\Notifications\\MonitorFailedNotification', 'App\\Models\\Company', 1,
                 json_object('type', 'monitor', 'type_id', @monitorId), json_object('reason', json_object('kind', @kind)), @at, @at)`,
      );
      for (let i = 0; i < 1440; i++) failed.run({ monitorId: (i * 7) % monitors + 1, kind: i % 3 === 0 ? 'missed' : 'failed', at: now - DAY + i * 60_000 });
    })();
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    store.close();
  }
}

/** The daily report's data for company 1's monitors (timed), then laid out for every kind (timed). */
async function timeReport(dataDir: string, now: number): Promise<{ data: number[]; held: number; layouts: number[]; monitors: number; bytes: number }> {
  const store = openStore(databaseFile(dataDir), now);
  try {
    const channel = store.channels.create({ companyId: 1, name: 'ops', kind: 'webhook', settings: SETTINGS.webhook, quietHours: null, now });
    const schedule: ReportSchedule = { frequency: 'daily', time: '08:00', timezone: 'UTC' };
    const period = lastReportPeriod(schedule, now)!;
    const data = await timeRuns(() => channelReport(store, channel, schedule, period, now), 10, 2);
    // How long at most the event loop waited while one was built (what a pulse arriving then would wait).
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const report = await channelReport(store, channel, schedule, period, now);
    delay.disable();
    const held = delay.max / 1e6;
    const context = { dashboardUrl: 'https://cron.example.com', deliveryKey: 'bench', channelName: 'ops' };
    let bytes = 0;
    const layouts = await timeRuns(
      () => {
        bytes = 0;
        for (const kind of Object.keys(SETTINGS) as ChannelKind[]) {
          const request = buildReportRequest({ kind, settings: SETTINGS[kind] }, report, context);
          bytes += request.transport === 'http' ? request.body.length : request.mail.text.length + request.mail.html.length;
        }
      },
      10,
      2,
    );
    return { data, held, layouts, monitors: report.totals.monitors, bytes };
  } finally {
    store.close();
  }
}

/**
 * Section 8: a daily report built for 10,000 monitors with a day of runs (240,000 pulses) beside
 * the same for 1,000, in this process: the store's reading and the numbers, then the layouts of
 * all six kinds. Built once a period per channel, synchronously, so what it holds the agent's
 * event loop is what matters.
 */
export async function measureReports(tempRoot: string, log: (line: string) => void): Promise<Figure[]> {
  const now = Date.parse('2026-11-27T08:00:00Z');
  log(`seeding reports: ${MONITORS.toLocaleString('en-US')} and ${BASELINE_MONITORS.toLocaleString('en-US')} monitors, ${RUNS_A_DAY} runs a day each`);
  const bigDir = join(tempRoot, 'reports-big');
  const smallDir = join(tempRoot, 'reports-small');
  seedReportData(bigDir, MONITORS, now);
  seedReportData(smallDir, BASELINE_MONITORS, now);
  const small = await timeReport(smallDir, now);
  const big = await timeReport(bigDir, now);
  if (big.monitors !== MONITORS) throw new Error(`the report covered ${big.monitors} monitors, not ${MONITORS}`);
  return [
    figure({
      section: '8',
      name: 'daily report built for 10,000 monitors (240,000 runs): read and counted',
      value: round(median(big.data), 1),
      unit: 'ms',
      // Once a period per channel, in slices beside pulses: how late the report goes out, not what anyone waits for.
      target: { below: 2000 },
      baseline: { name: '1,000 monitors', value: round(median(small.data), 1) },
      note: `median of 10, in slices; ${round(Math.max(...big.data), 1)} ms at most`,
    }),
    figure({
      section: '8',
      name: 'longest the event loop waited while that report was built (a pulse arriving then waits as long)',
      value: round(big.held, 1),
      unit: 'ms',
      target: { below: 50 },
      baseline: { name: '1,000 monitors', value: round(small.held, 1) },
      note: 'monitorEventLoopDelay, 1 ms resolution',
    }),
    figure({
      section: '8',
      name: 'the same report laid out for all six kinds (cut to each service, webhook JSON whole)',
      value: round(median(big.layouts), 1),
      unit: 'ms',
      target: { below: 500 },
      baseline: { name: '1,000 monitors', value: round(median(small.layouts), 1) },
      note: `median of 10; ${Math.round(big.bytes / 1024).toLocaleString('en-US')} KB in all`,
    }),
  ];
}
