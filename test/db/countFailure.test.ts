import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase } from '../../agent/db/open';
import { createStore } from '../../agent/db/store';
import type { CountedFailure } from '../../agent/db/monitorAlerting';
import type { MonitorRow } from '../../agent/db/monitors';
import { tempDir } from '../helpers/testAgent';

const now = Date.parse('2026-11-25T10:00:00Z');
const MINUTE = 60_000;

/**
 * What counting a failure wrote before the row was made in JavaScript (one UPDATE … RETURNING *): the
 * reference the row countFailure writes and hands back must equal, column for column.
 */
const REFERENCE_SQL = `UPDATE monitors SET is_alerted = 1, alert_reason = '', alert_reason_data = @reasonData, failures = @failures,
     alert_sent = @alertSent, expected_run_at = @expectedRunAt, running_since = @runningSince,
     running_rid = CASE WHEN @runningSince IS NULL THEN NULL ELSE running_rid END,
     due_at = @dueAt, grace_from = NULL, updated_at = @now,
     flapping = CASE WHEN @noteFlapping THEN @flapping ELSE flapping END,
     steady_at = CASE WHEN @noteFlapping THEN @steadyAt ELSE steady_at END,
     state_since = max(coalesce(state_since, last_run_at), last_run_at),
     failed_at = CASE WHEN is_alerted = 0 THEN @now ELSE failed_at END
   WHERE id = @id AND (is_alerted = 0 OR alert_sent = 0) AND deleted_at IS NULL
   RETURNING *`;

/** Monitor states a failure is counted from: each column countFailure writes from the one before, both ways. */
const STATES: Array<{ what: string; set: string }> = [
  { what: 'fine, never changed state', set: 'state_since = NULL' },
  { what: 'fine since before its last run', set: `state_since = ${now - 90 * MINUTE}` },
  { what: 'fine since after its last run (a resume)', set: `state_since = ${now - 10 * MINUTE}, resumed_at = ${now - 10 * MINUTE}` },
  { what: 'running, with a run id', set: `running_since = ${now - 20 * MINUTE}, running_rid = 'r-1'` },
  { what: 'a streak short of its alert', set: `is_alerted = 1, alert_sent = 0, alert_after = 3, failures = '[${now - 60 * MINUTE}]', failed_at = ${now - 60 * MINUTE}` },
  { what: 'flapping', set: `flapping = '{"changes":[${now - 30 * MINUTE}],"since":null,"count":0}', steady_at = ${now + 30 * MINUTE}` },
];

/** Failures counted: alerting or not, ending a run or not, noting flapping or leaving it. */
const FAILURES: CountedFailure[] = [
  { reasonData: { kind: 'missed', expected_at: '2026-11-25T09:45:00.000000Z', grace_minutes: 15, resumed_at: null, last_run_at: null }, failures: [now - 15 * MINUTE], alertSent: true, expectedRunAt: now - 15 * MINUTE, runningSince: null, dueAt: null, now },
  { reasonData: { kind: 'missed', expected_at: '2026-11-25T09:45:00.000000Z', grace_minutes: 15, resumed_at: null, last_run_at: null }, failures: [now - 60 * MINUTE, now - 15 * MINUTE], alertSent: false, expectedRunAt: now + 45 * MINUTE, runningSince: null, dueAt: now + 60 * MINUTE, now },
  { reasonData: { kind: 'missed', expected_at: '2026-11-25T09:45:00.000000Z', grace_minutes: 15, resumed_at: null, last_run_at: null }, failures: [now - 15 * MINUTE], alertSent: true, expectedRunAt: now - 15 * MINUTE, runningSince: now - 20 * MINUTE, dueAt: null, now, flapping: { state: { changes: [now - 30 * MINUTE, now], since: null, count: 0 }, steadyAt: null } },
];

describe('countFailure', () => {
  it('writes and hands back what the one UPDATE … RETURNING * wrote, whatever state the failure is counted from', () => {
    const store = createStore(openDatabase(join(tempDir(), 'count-failure.db')));
    store.companies.ensure(1, now);
    const reference = store.db.prepare(REFERENCE_SQL);
    let n = 0;
    const twin = (set: string) => {
      const made = store.monitors.create({
        companyId: 1, name: 'job', projectId: null, token: `t-${n++}`, timezone: 'UTC', schedule: '45 * * * *',
        duration: 15, expectedRunAt: now - 15 * MINUTE, dueAt: now, now: now - 120 * MINUTE,
      });
      store.db.prepare(`UPDATE monitors SET last_run_at = ${now - 75 * MINUTE}, ${set} WHERE id = ?`).run(made.id);
      return made.id;
    };
    const rowOf = (id: number) => store.db.prepare('SELECT * FROM monitors WHERE id = ?').get(id) as MonitorRow;
    const apart = ({ id, token, ...rest }: MonitorRow) => rest;
    for (const state of STATES) {
      for (const failure of FAILURES) {
        const [ours, theirs] = [twin(state.set), twin(state.set)];
        const written = store.db.transaction(() => store.monitorAlerting.countFailure(rowOf(ours), failure))();
        const { flapping, ...rest } = failure;
        const expected = reference.get({
          ...rest, id: theirs, reasonData: JSON.stringify(failure.reasonData), failures: JSON.stringify(failure.failures),
          alertSent: failure.alertSent ? 1 : 0, noteFlapping: flapping ? 1 : 0, flapping: flapping ? JSON.stringify(flapping.state) : null,
          steadyAt: flapping?.steadyAt ?? null,
        }) as MonitorRow;
        const what = `${state.what}, ${JSON.stringify(failure)}`;
        expect(written, what).toEqual(rowOf(ours));
        expect(Object.keys(written!), what).toEqual(Object.keys(expected));
        expect(apart(written!), what).toEqual(apart(expected));
      }
    }
    store.close();
  });

  it('counts nothing, and hands back null, for a failure already alerted or a deleted monitor', () => {
    const store = createStore(openDatabase(join(tempDir(), 'count-failure-none.db')));
    store.companies.ensure(1, now);
    const make = (token: string, set: string) => {
      const made = store.monitors.create({
        companyId: 1, name: token, projectId: null, token, timezone: 'UTC', schedule: '45 * * * *', duration: 15,
        expectedRunAt: now - 15 * MINUTE, dueAt: now, now: now - 120 * MINUTE,
      });
      store.db.prepare(`UPDATE monitors SET ${set} WHERE id = ?`).run(made.id);
      return store.db.prepare('SELECT * FROM monitors WHERE id = ?').get(made.id) as MonitorRow;
    };
    for (const before of [make('alerted', `is_alerted = 1, alert_sent = 1, failed_at = ${now - MINUTE}`), make('deleted', `deleted_at = ${now - MINUTE}`)]) {
      expect(store.monitorAlerting.countFailure(before, FAILURES[0]!)).toBeNull();
      expect(store.db.prepare('SELECT * FROM monitors WHERE id = ?').get(before.id)).toEqual(before);
    }
    store.close();
  });
});
