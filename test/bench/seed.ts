import { mkdirSync } from 'node:fs';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import type { Db } from '../../agent/db/open';
import { openStore } from '../../agent/db/store';
import { dueAt, expectedRunAfter } from '../../agent/domain/monitors/dueTime';
import { monitorFailedData } from '../../agent/domain/alerts/monitorNotifications';
import { NOTIFICATION_KINDS, NOTIFIABLE_TYPE } from '../../agent/domain/alerts/notificationKinds';
import { toApiTimestamp } from '../../agent/domain/time/apiTimestamps';
import { MONITOR_TOKEN_SQL, monitorToken } from './tokens';

/*
 * Seeded data for the benchmarks: deterministic (same rows every run, so runs compare),
 * written with one INSERT … SELECT over a recursive CTE per table, inside one transaction.
 */

export interface SeedPlan {
  /** Monitors in all; the first `monitorsOfCompany1` belong to company 1, the rest to company 2. */
  monitors: number;
  monitorsOfCompany1: number;
  /** Servers of company 1. */
  servers: number;
  /** Notifications of company 1, one a second going back from `now`. */
  notifications: number;
  /** TLS certificates of company 1, all checked and valid, next check hours away (so none is dialled). */
  certificates?: number;
  /** Monitors of company 1 on these schedules, numbered after the `monitors` others. */
  scheduled?: Array<{ schedule: string; timezone: string }>;
  now: number;
}

export interface SeededDatabase {
  /** An API token of company 1. */
  token: string;
}

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'];
const VARIANTS = 240;


const counter = (limit: string) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${limit})`;

export function seedDatabase(dataDir: string, plan: SeedPlan): SeededDatabase {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const store = openStore(databaseFile(dataDir), plan.now);
  try {
    store.companies.ensure(2, plan.now);
    const { token } = store.apiTokens.create({ companyId: 1, name: 'bench', now: plan.now });
    store.db.transaction(() => {
      seedMonitors(store.db, plan);
      seedScheduled(store.db, plan);
      seedServers(store.db, plan);
      seedNotifications(store.db, plan);
      seedCertificates(store.db, plan);
    })();
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    return { token };
  } finally {
    store.close();
  }
}

/**
 * Monitors on staggered schedules: hourly at each minute of the hour, in four zones (one of
 * them half an hour off UTC), durations 5–15 min, so due times spread over the coming hour.
 * Their timing state is what the engine's own domain functions give for a monitor created at `now`.
 */
function seedMonitors(db: Db, { monitors, monitorsOfCompany1, now }: SeedPlan): void {
  if (monitors === 0) return;
  db.exec('CREATE TEMP TABLE bench_variants (v INTEGER PRIMARY KEY, schedule TEXT, timezone TEXT, duration INTEGER, expected_run_at INTEGER, due_at INTEGER)');
  const variant = db.prepare('INSERT INTO bench_variants VALUES (@v, @schedule, @timezone, @duration, @expectedRunAt, @dueAt)');
  for (let v = 0; v < VARIANTS; v++) {
    const spec = { schedule: `${v % 60} * * * *`, timezone: ZONES[Math.floor(v / 60)] };
    const duration = 5 + (v % 11);
    const expectedRunAt = expectedRunAfter(spec, now);
    const due = dueAt({ ...spec, durationMinutes: duration, expectedRunAt, runningSince: null, isAlerted: false, graceFrom: null });
    variant.run({ v, ...spec, duration, expectedRunAt, dueAt: due });
  }
  db.prepare(
    `INSERT INTO monitors (company_id, name, project_id, token, timezone, schedule, duration, last_run_at,
                           expected_run_at, due_at, created_at, updated_at)
     ${counter('@monitors')}
     SELECT CASE WHEN i <= @monitorsOfCompany1 THEN 1 ELSE 2 END, 'nightly job ' || i, CASE WHEN i % 3 = 0 THEN i % 50 + 1 END,
            ${MONITOR_TOKEN_SQL}, b.timezone, b.schedule, b.duration, @now, b.expected_run_at, b.due_at, @now, @now
     FROM n JOIN bench_variants b ON b.v = i % ${VARIANTS}`,
  ).run({ monitors, monitorsOfCompany1, now });
  db.exec('DROP TABLE bench_variants');
}

/** One monitor per `scheduled` entry, waiting for its first run after `now`, 5 min each. */
function seedScheduled(db: Db, { monitors, scheduled = [], now }: SeedPlan): void {
  const insert = db.prepare(
    `INSERT INTO monitors (company_id, name, token, timezone, schedule, duration, last_run_at, expected_run_at, due_at,
                           created_at, updated_at)
     VALUES (1, @name, @token, @timezone, @schedule, 5, @now, @expectedRunAt, @dueAt, @now, @now)`,
  );
  scheduled.forEach((spec, index) => {
    const expectedRunAt = expectedRunAfter(spec, now);
    const due = dueAt({ ...spec, durationMinutes: 5, expectedRunAt, runningSince: null, isAlerted: false, graceFrom: null });
    insert.run({ ...spec, name: `${spec.schedule} job`, token: monitorToken(monitors + index + 1), now, expectedRunAt, dueAt: due });
  });
}

function seedServers(db: Db, { servers, now }: SeedPlan): void {
  if (servers === 0) return;
  db.prepare(
    `INSERT INTO servers (company_id, name, identifier, ip_address, created_at, updated_at)
     ${counter('@servers')}
     SELECT 1, 'web server ' || i, 'srv-' || i, '10.' || ((i >> 16) & 255) || '.' || ((i >> 8) & 255) || '.' || (i & 255), @now, @now
     FROM n`,
  ).run({ servers, now });
}

/** Failure notifications as the engine writes them, each about one of the seeded monitors, their popups long shown. */
function seedNotifications(db: Db, { notifications, now }: SeedPlan): void {
  if (notifications === 0) return;
  const template = JSON.stringify(
    monitorFailedData({
      id: 1,
      name: 'nightly job 1',
      project_id: null,
      token: monitorToken(1),
      timezone: 'Europe/Paris',
      schedule: '0 3 * * *',
      duration: 5,
      last_run_at: now,
      is_alerted: 1,
      alert_reason: 'Missed: the run due 03:00 Europe/Paris (02:00 UTC) did not come (grace 5 min)',
      reason: null,
    }),
  );
  // Every notification keeps its alert as data (what channels render); these are told in their own words.
  const alert = JSON.stringify({
    event: 'monitor.failed',
    at: toApiTimestamp(now),
    reason: { kind: 'other', title: 'nightly job failed', description: 'Missed: the run due 03:00 Europe/Paris (02:00 UTC) did not come (grace 5 min)' },
    monitor: null,
    server: null,
    run: null,
    expected_at: null,
  });
  db.prepare(
    `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, created_at, updated_at, popup_shown_at)
     ${counter('@notifications')}
     SELECT ${MONITOR_TOKEN_SQL}, @type, @notifiableType, 1, replace(@template, '"type_id":1,', '"type_id":' || (i % 1000 + 1) || ','), @alert,
            @now - (@notifications - i) * 1000, @now - (@notifications - i) * 1000, @now - (@notifications - i) * 1000
     FROM n`,
  ).run({ notifications, now, template, alert, type: NOTIFICATION_KINDS.monitorFailed.type, notifiableType: NOTIFIABLE_TYPE });
}

function seedCertificates(db: Db, { certificates = 0, now }: SeedPlan): void {
  if (certificates === 0) return;
  db.prepare(
    `INSERT INTO ssl_certificates (company_id, hostname, port, warn_days, status, expires_at, valid_from, issuer, subject,
                                   fingerprint_sha256, last_checked_at, next_check_at, created_at, updated_at)
     ${counter('@certificates')}
     SELECT 1, 'site-' || i || '.example.com', 443, 14, 'valid', @now + 60 * 86400000, @now - 30 * 86400000,
            'CN=Example CA', 'CN=site-' || i || '.example.com', printf('%064x', i), @now, @now + 6 * 3600000, @now, @now
     FROM n`,
  ).run({ certificates, now });
}
