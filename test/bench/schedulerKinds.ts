import { databaseFile } from '../../agent/dataFolder/dataDir';
import { openStore, type Store } from '../../agent/db/store';
import { windowOf } from '../../agent/db/maintenanceWindows';
import { AgentEvents } from '../../agent/engine/events';
import { startMonitorLoop } from '../../agent/engine/loop';
import { replanAfterWindowChange } from '../../agent/engine/monitors/maintenance';
import { createOverdueFailer, type OverdueFailer } from '../../agent/engine/failOverdue';
import type { Notifier, Popup } from '../../agent/engine/popups/notifier';
import { figure, type Figure } from './report';
import { median, round } from './stats';

/*
 * Measurement 2, this round's schedules and maintenance windows, over the 100,000
 * monitors of measurement 2 after its burst:
 * - the scheduler step failing KIND_BATCH monitors on a systemd calendar event and on a period,
 *   beside the same step over as many cron monitors (median of KIND_ROUNDS rounds each, in turn);
 * - a maintenance window over company 1's 10,000 monitors: their deadlines passing inside it (the
 *   real loop plans each after the window instead of failing it), then the window ended early
 *   (every monitor it held planned again, as DELETE /api/maintenance-windows/{id} does).
 */

const KIND_BATCH = 1_000;
const KIND_ROUNDS = 3;
const KINDS = [
  { label: '`0 3 * * *` (cron)', schedule: '0 3 * * *' },
  { label: '`Mon..Fri *-*-* 02:30:00` (calendar event)', schedule: 'Mon..Fri *-*-* 02:30:00' },
  { label: '`@every 90m` (period)', schedule: '@every 90m' },
];
const HOUR = 3_600_000;

const quiet: Notifier = { show: (_popup: Popup) => undefined };

/** Company 2's monitors from `firstId`, KIND_BATCH of them, on `schedule`, not failed and due at `dueAt`. */
function dueOnSchedule(store: Store, firstId: number, schedule: string, dueAt: number): void {
  store.db
    .prepare(
      `UPDATE monitors SET schedule = @schedule, timezone = 'America/New_York', is_alerted = 0, alert_reason = '', alert_reason_data = NULL,
         failed_at = NULL, due_at = @dueAt, expected_run_at = @dueAt - duration * 60000, grace_from = NULL, running_since = NULL
       WHERE id >= @firstId AND id < @firstId + @count`,
    )
    .run({ schedule, dueAt, firstId, count: KIND_BATCH });
}

/** The loop's step at `now` with nothing else going on (as measurement 2's burst), to its end. */
function stepAt(failer: OverdueFailer, now: number): Promise<void> {
  return new Promise((resolve, reject) => failer.step({ clock: () => now, idle: () => true }, (error) => (error === undefined ? resolve() : reject(error))));
}

/** The step failing KIND_BATCH monitors of each kind, in turn, KIND_ROUNDS times: ms per kind. */
async function failByKind(store: Store): Promise<number[][]> {
  const failer = createOverdueFailer({ store, events: new AgentEvents(), notifier: quiet });
  // Company 2's monitors (ids past company 1's 10,000), clear of measurement 2's burst rows.
  const firstIds = KINDS.map((_, i) => 60_001 + i * 2 * KIND_BATCH);
  const times: number[][] = KINDS.map(() => []);
  for (let round = 0; round < KIND_ROUNDS; round++) {
    for (const [i, kind] of KINDS.entries()) {
      const now = Date.now();
      dueOnSchedule(store, firstIds[i]!, kind.schedule, now - 1);
      const start = process.hrtime.bigint();
      await stepAt(failer, now);
      times[i]!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return times;
}

function waitFor(condition: () => boolean, until: number): Promise<boolean> {
  return new Promise((resolve) => {
    const poll = () => (condition() ? resolve(true) : Date.now() > until ? resolve(false) : setTimeout(poll, 20));
    poll();
  });
}

/** Company 1's monitors in a window from now to an hour on, their deadlines passing inside it; then the window ended early. */
async function maintenanceOverAll(store: Store, log: (line: string) => void): Promise<{ excuseMs: number | null; excused: number; endMs: number; replanned: number; listMs: number }> {
  const events = new AgentEvents();
  const failer = createOverdueFailer({ store, events, notifier: quiet });
  const now = Date.now();
  // Neither monitors nor tags named: it covers every monitor of the company.
  const window = store.maintenanceWindows.create(
    1,
    { name: 'bench upgrade', startsAt: now - 60_000, endsAt: now + HOUR, schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] },
    now,
  );
  const dueAt = now + 1_000;
  const covered = store.db
    .prepare(
      `UPDATE monitors SET is_alerted = 0, alert_reason = '', alert_reason_data = NULL, failed_at = NULL,
         due_at = @dueAt, expected_run_at = @dueAt - duration * 60000, grace_from = NULL, running_since = NULL
       WHERE company_id = 1 AND deleted_at IS NULL`,
    )
    .run({ dueAt }).changes;
  const plannedAt = new Map<number, number>();
  const unsubscribe = events.subscribe((event) => {
    if (event.type === 'monitor.changed') plannedAt.set(event.monitorId, Date.now());
  });
  const stopLoop = startMonitorLoop({ failer, events, clock: Date.now, log });
  const done = await waitFor(() => plannedAt.size >= covered, dueAt + 60_000);
  stopLoop();
  unsubscribe();
  const failed = store.db.prepare('SELECT count(*) FROM monitors WHERE company_id = 1 AND failed_at >= @now').pluck().get({ now }) as number;
  if (!done || failed > 0) log(`maintenance: ${plannedAt.size} of ${covered} planned after the window, ${failed} failed`);
  const excuseMs = done && failed === 0 ? Math.max(...plannedAt.values()) - dueAt : null;

  const listStart = process.hrtime.bigint();
  store.monitors.list(1);
  const listMs = Number(process.hrtime.bigint() - listStart) / 1e6;
  const endStart = process.hrtime.bigint();
  const replanned = store.db.transaction(() => {
    store.maintenanceWindows.delete(1, window.id);
    return replanAfterWindowChange({ store }, 1, windowOf(window), Date.now());
  })();
  const endMs = Number(process.hrtime.bigint() - endStart) / 1e6;
  log(`maintenance: ${plannedAt.size} of ${covered} deadlines excused in ${excuseMs} ms; ended early in ${round(endMs)} ms, ${replanned.length} planned again`);
  return { excuseMs, excused: plannedAt.size, endMs, replanned: replanned.length, listMs };
}

export async function measureSchedulerKinds(bigDataDir: string, log: (line: string) => void): Promise<Figure[]> {
  const store = openStore(databaseFile(bigDataDir), Date.now());
  try {
    const times = await failByKind(store);
    const rates = times.map((runs) => KIND_BATCH / (median(runs) / 1000));
    log(`scheduler by kind: ${KINDS.map((k, i) => `${k.schedule} ${times[i]!.map((t) => round(t)).join('/')} ms`).join('; ')}`);
    const figures = KINDS.slice(1).map((kind, i) =>
      figure({
        section: '2',
        name: `scheduler step failing ${KIND_BATCH.toLocaleString('en-US')} due at once, ${kind.label}`,
        value: Math.round(rates[i + 1]!),
        unit: 'failures/s',
        target: { atLeastShareOfBaseline: 2 / 3 },
        baseline: { name: `the same over ${KINDS[0]!.label}`, value: Math.round(rates[0]!) },
        note: `median of ${KIND_ROUNDS} rounds (${round(median(times[i + 1]!), 1)} ms against ${round(median(times[0]!), 1)} ms), America/New_York`,
      }),
    );
    const maintenance = await maintenanceOverAll(store, log);
    figures.push(
      figure({
        section: '2',
        name: `maintenance window over 10,000 monitors: their deadlines passing inside it, each planned after it`,
        value: maintenance.excuseMs,
        unit: 'ms',
        target: { below: 1000 },
        note: `from the deadline to the last monitor planned again, real loop; ${maintenance.excused.toLocaleString('en-US')} excused, none failed (as failing as many, above)`,
      }),
      figure({
        section: '2',
        name: 'the same window ended early (removed): every monitor it held planned again',
        value: round(maintenance.endMs, 1),
        unit: 'ms',
        target: { below: 1000 },
        baseline: { name: 'reading those 10,000 monitors', value: round(maintenance.listMs, 1) },
        note: `${maintenance.replanned.toLocaleString('en-US')} planned again, in one transaction (what DELETE /api/maintenance-windows/{id} does)`,
      }),
    );
    return figures;
  } finally {
    store.close();
  }
}
