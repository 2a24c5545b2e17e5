import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quietAfter } from '../../agent/domain/servers/quietAfter';
import { rollBackTo } from '../helpers/rollBack';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/*
 * Reports kept by a release whose quiet notification waited three intervals: after the upgrade a
 * watcher not yet told of as quiet is told at the moment the servers list marks it quiet.
 */

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
});

describe('migrating the quiet moment of kept reports', () => {
  it('moves the alert of each watcher not yet quiet to the one quiet rule, and leaves one already told of alone', async () => {
    const dataDir = tempDir();
    const first = await startTestAgent({ dataDir });
    for (const identifier of ['hourly', 'unsaid', 'told']) {
      expect((await first.api('/api/servers', { method: 'POST', json: { name: identifier, ip_address: '10.0.0.7', identifier } })).status).toBe(201);
    }
    await first.close();
    const at = Date.parse('2026-11-23T10:00:00Z');
    rollBackTo(
      join(dataDir, 'cronbeat.db'),
      26,
      `INSERT INTO server_reports (server_id, last_report_at, interval_seconds, jobs, quiet_alert_at, quiet_since)
       SELECT id, ${at}, CASE identifier WHEN 'unsaid' THEN NULL ELSE 3600 END, 2,
              ${at} + 3 * coalesce(CASE identifier WHEN 'unsaid' THEN NULL ELSE 3600 END * 1000, 3600000),
              CASE identifier WHEN 'told' THEN ${at + 3 * 3_600_000 + 1} END
       FROM servers;`,
    );

    // Started at the reports' time: a start later would count their silence from then (quietAfterOutage).
    agent = await startTestAgent({ dataDir, clock: () => at });
    // Each server's watcher from before watchers named themselves carries its quiet moment now (migration 40).
    const alertAt = (identifier: string) =>
      agent!.store.db.prepare("SELECT quiet_alert_at FROM server_watchers w JOIN servers s ON s.id = w.server_id WHERE s.identifier = ? AND w.watcher = ''").pluck().get(identifier);
    expect(alertAt('hourly')).toBe(quietAfter(at, 3600));
    expect(alertAt('unsaid')).toBe(quietAfter(at, null));
    expect(alertAt('told')).toBe(at + 3 * 3_600_000);
  });
});
