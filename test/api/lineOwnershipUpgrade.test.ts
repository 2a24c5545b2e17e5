import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { migrations } from '../../agent/db/migrations';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/*
 * A database from before monitors recorded which key's line made them: its line-made monitors are
 * nobody's, so no line may claim them (any key that existed then could otherwise take them over)
 * until an admin hands each to its key.
 */

let agent: TestAgent;
let monitorId: number;
beforeAll(async () => {
  const dataDir = tempDir();
  const version = migrations.findIndex((sql) => sql.includes('ADD COLUMN line_key_id'));
  expect(version).toBeGreaterThan(16);
  const old = new Database(databaseFile(dataDir));
  old.exec(migrations.slice(0, version).join('\n'));
  old.pragma(`user_version = ${version}`);
  old.exec(`INSERT INTO companies (id, name, created_at) VALUES (1, 'c', 0)`);
  monitorId = Number(
    old
      .prepare(
        `INSERT INTO monitors (company_id, name, slug, token, timezone, schedule, duration, tags, last_run_at, expected_run_at, due_at, created_at, updated_at)
         VALUES (1, 'legacy-backup', 'legacy-backup', 'a1b2c3d4-0000-4000-8000-000000000001', 'UTC', '0 3 * * *', 60, '', 0, NULL, NULL, 0, 0)`,
      )
      .run().lastInsertRowid,
  );
  old.close();
  agent = await startTestAgent({ dataDir });
});
afterAll(() => agent.stop());

describe('monitors made by lines before keys were recorded', () => {
  it('are refused to every line until an admin hands one to a key', async () => {
    expect(agent.store.monitors.find(1, monitorId)).toMatchObject({ slug: 'legacy-backup', line_key_id: null });
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() });
    const pulse = () => fetch(`${agent.url}/api/pulse/key/${key.token}/legacy-backup?create=1&schedule=0+4+*+*+*`);
    const refused = await pulse();
    expect(refused.status).toBe(409);
    expect(refused.headers.get('x-cronbeat-monitor-token')).toBeNull();
    expect((await refused.json()).message).toContain(`cronbeat monitor hand ${monitorId} --key ${key.id}`);
    expect(agent.store.pulses.count(monitorId)).toBe(0);

    expect((await agent.api(`/api/monitors/${monitorId}/line-key`, { method: 'PUT', json: { key_id: key.id } })).status).toBe(200);
    const accepted = await pulse();
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('x-cronbeat-monitor-token')).toBe('a1b2c3d4-0000-4000-8000-000000000001');
    expect(agent.store.monitors.find(1, monitorId)).toMatchObject({ schedule: '0 4 * * *', line_key_id: key.id });
  });
});
