import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../agent/db/migrations';
import { openDatabase } from '../../agent/db/open';
import { reasonText } from '../../agent/domain/alerts/reasonPieces';
import { sendReminders } from '../../agent/engine/delivery/reminders';
import { presentMonitor } from '../../agent/api/present/present';
import { rollBackTo } from '../helpers/rollBack';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';
import { at, engineFixture } from '../engine/engineFixture';

const now = Date.parse('2026-11-21T09:58:30Z');
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

async function createMonitor() {
  return (await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', timezone: 'Europe/Paris', schedule: '0 * * * *', duration: 5 } })).json();
}
const show = async (id: number) => (await agent.api(`/api/monitors/${id}`)).json();
const pulse = (token: string, path: string) => fetch(`${agent.url}/api/pulse/${token}${path}`, { method: 'POST' });

describe('a monitor reason as data, on the API', () => {
  it('keeps a reported failure as data beside the same words, and a recovery clears both', async () => {
    const monitor = await createMonitor();
    expect(monitor.alert_reason_data).toBeNull();
    await pulse(monitor.token, '/3');
    const failed = await show(monitor.id);
    expect(failed).toMatchObject({ is_alerted: 1, alert_reason: 'Failed: the job exited with code 3', alert_reason_data: { kind: 'failed', exit_code: 3 } });
    const listed = (await (await agent.api('/api/monitors')).json()).find((m: { id: number }) => m.id === monitor.id);
    expect(listed.alert_reason_data).toEqual({ kind: 'failed', exit_code: 3 });

    await pulse(monitor.token, '');
    expect(await show(monitor.id)).toMatchObject({ is_alerted: 0, alert_reason: '', alert_reason_data: null });
  });

  it('stores the reason once, as data: alert_reason is made from it when shown, never read back from stored words', async () => {
    const monitor = await createMonitor();
    await pulse(monitor.token, '/4');
    const stored = () => agent.store.db.prepare('SELECT alert_reason, alert_reason_data FROM monitors WHERE id = ?').get(monitor.id);
    expect(stored()).toEqual({ alert_reason: '', alert_reason_data: '{"kind":"failed","exit_code":4}' });
    agent.store.db.prepare("UPDATE monitors SET alert_reason = 'stale words' WHERE id = ?").run(monitor.id);
    expect((await show(monitor.id)).alert_reason).toBe('Failed: the job exited with code 4');
    // The failure's notification says the same, in its snapshot of the monitor.
    const notice = (await (await agent.api('/api/notifications?per_page=100')).json()).data.find((n: { data: { type_id: number } }) => n.data.type_id === monitor.id);
    expect(notice.data).toMatchObject({ type_id: monitor.id, description: 'Failed: the job exited with code 4', monitor_alert_reason: 'Failed: the job exited with code 4' });
  });

  it('keeps the words of a failure from before reasons were data, which has no data to make them from', async () => {
    const monitor = await createMonitor();
    agent.store.db.prepare("UPDATE monitors SET is_alerted = 1, alert_reason = 'No pulse in time', alert_reason_data = NULL WHERE id = ?").run(monitor.id);
    expect(await show(monitor.id)).toMatchObject({ is_alerted: 1, alert_reason: 'No pulse in time', alert_reason_data: null });
    // A start pulse leaves it failed, and its words with it.
    await pulse(monitor.token, '/start');
    expect(await show(monitor.id)).toMatchObject({ is_alerted: 1, alert_reason: 'No pulse in time' });
  });

  it('forgets the reason when a pause acknowledges the failure', async () => {
    const monitor = await createMonitor();
    await pulse(monitor.token, '/fail');
    expect((await show(monitor.id)).alert_reason_data).toEqual({ kind: 'failed', exit_code: null });
    await agent.api(`/api/monitors/${monitor.id}/pause`, { method: 'POST' });
    expect(await show(monitor.id)).toMatchObject({ is_alerted: 0, alert_reason: '', alert_reason_data: null });
  });
});

describe('a missed deadline as data', () => {
  let fixture: ReturnType<typeof engineFixture> | undefined;
  afterEach(() => fixture?.close());

  it('stores the run due and the grace, and alert_reason is their words in the monitor zone', async () => {
    fixture = engineFixture(at('2026-11-21T08:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 10 * * *', timezone: 'Europe/Paris', duration: 5 });
    await fixture.step(at('2026-11-21T09:06:00Z'));
    const row = fixture.reload(monitor.id);
    const data = JSON.parse(row.alert_reason_data!);
    expect(data).toEqual({ kind: 'missed', expected_at: '2026-11-21T09:00:00.000000Z', grace_minutes: 5, resumed_at: null, last_run_at: null });
    expect(row.alert_reason).toBe('');
    const words = presentMonitor(row, 'http://127.0.0.1', null).alert_reason;
    expect(words).toBe('Missed: the run due 2026-11-21 10:00 Europe/Paris (09:00 UTC) did not come (grace 5 min); no run has come yet');
    expect(reasonText(data, 'Europe/Paris')).toBe(words);
  });

  it('says what the job said once a failing run reports after the miss', async () => {
    fixture = engineFixture(at('2026-11-21T08:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 10 * * *', timezone: 'Europe/Paris', duration: 5 });
    await fixture.step(at('2026-11-21T09:06:00Z'));
    const failedAt = fixture.reload(monitor.id).failed_at;
    // The run comes late, and says it failed: the monitor stays failed (no second alert), now for the job's reason.
    await fixture.pulse(monitor.token, at('2026-11-21T09:20:00Z'), { kind: 'fail', exitCode: 3 });
    const row = fixture.reload(monitor.id);
    expect(row).toMatchObject({ is_alerted: 1, failed_at: failedAt });
    expect(JSON.parse(row.alert_reason_data!)).toEqual({ kind: 'failed', exit_code: 3 });
    expect(presentMonitor(row, 'http://127.0.0.1', null).alert_reason).toBe('Failed: the job exited with code 3');
    expect(fixture.store.notifications.page(1, 100, 0)).toHaveLength(1);
  });

  it("has its reminders say the job's reason too, in their alert and their notification alike", async () => {
    const start = at('2026-11-21T08:00:00Z');
    fixture = engineFixture(start);
    fixture.store.channels.create({ companyId: 1, name: 'pager', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook' }, quietHours: null, remindEveryHours: 1, now: start });
    const monitor = fixture.monitor({ schedule: '0 10 * * *', timezone: 'Europe/Paris', duration: 5 });
    await fixture.step(at('2026-11-21T09:06:00Z'));
    await fixture.pulse(monitor.token, at('2026-11-21T09:20:00Z'), { kind: 'fail', exitCode: 3 });
    // The failure was sent: its reminder comes an hour after it.
    fixture.store.db.prepare("UPDATE deliveries SET status = 'sent'").run();
    expect(sendReminders({ store: fixture.store, events: fixture.events }, at('2026-11-21T10:06:00Z'))).toBe(1);
    const [reminder] = fixture.store.notifications.page(1, 100, 0);
    expect(reminder!.alert!.reason).toEqual({ kind: 'failed', exit_code: 3 });
    expect(reminder!.data.description).toBe('Failed: the job exited with code 3');
  });
});

describe('the migration to reasons as data', () => {
  it('takes an old failure its data from the failure notification with the same words, and leaves others their words', async () => {
    const version = migrations.findIndex((sql) => sql.includes('ADD COLUMN alert_reason_data'));
    expect(version).toBeGreaterThan(18);
    const dataDir = tempDir();
    const old = await startTestAgent({ clock: () => now, dataDir });
    const created = async (name: string) =>
      (await old.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    const withNotice = await created('with-notice');
    const wordsOnly = await created('words-only');
    await fetch(`${old.url}/api/pulse/${withNotice.token}/2`, { method: 'POST' });
    await old.close();

    // The database as an older Cronbeat left it: no data column (nor what later migrations add); one failure whose
    // notification is gone.
    const file = join(dataDir, 'cronbeat.db');
    // An older Cronbeat kept a failure's words in alert_reason.
    rollBackTo(
      file,
      version,
      `UPDATE monitors SET is_alerted = 1, alert_reason = 'No pulse in time' WHERE id = ${wordsOnly.id};
       UPDATE monitors SET alert_reason = 'Failed: the job exited with code 2' WHERE id = ${withNotice.id};`,
    );

    const db = openDatabase(file);
    const rows = db.prepare('SELECT id, alert_reason, alert_reason_data FROM monitors ORDER BY id').all();
    db.close();
    expect(rows).toEqual([
      { id: withNotice.id, alert_reason: 'Failed: the job exited with code 2', alert_reason_data: '{"kind":"failed","exit_code":2}' },
      { id: wordsOnly.id, alert_reason: 'No pulse in time', alert_reason_data: null },
    ]);
  });
});
