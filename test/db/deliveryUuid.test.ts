import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../agent/db/migrations';
import { openDatabase } from '../../agent/db/open';
import { tempDir, UUID_V4 } from '../helpers/testAgent';

// X-Cronbeat-Delivery is each delivery's UUID; deliveries written before have one made.
describe('the delivery UUID migration', () => {
  it('gives every existing delivery its own random v4 UUID, kept from then on', () => {
    const version = migrations.findIndex((sql) => sql.includes('ALTER TABLE deliveries ADD COLUMN uuid'));
    expect(version).toBeGreaterThan(8);
    const file = join(tempDir(), 'old.db');
    const old = new Database(file);
    old.exec(migrations.slice(0, version).join('\n'));
    old.pragma(`user_version = ${version}`);
    old.exec(`INSERT INTO companies (id, name, created_at) VALUES (1, 'c', 0);
      INSERT INTO channels (id, company_id, name, kind, settings, created_at, updated_at) VALUES (1, 1, 'hook', 'webhook', '{}', 0, 0);
      INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, created_at, updated_at) VALUES ('n', 't', 'c', 1, '{}', 0, 0);`);
    const insert = old.prepare(
      `INSERT INTO deliveries (notification_id, channel_id, status, give_up_at, created_at) VALUES ('n', 1, 'pending', 0, 0)`,
    );
    for (let i = 0; i < 200; i++) insert.run();
    old.close();

    const db = openDatabase(file);
    const uuids = db.prepare('SELECT uuid FROM deliveries ORDER BY id').pluck().all() as string[];
    expect(uuids).toHaveLength(200);
    for (const uuid of uuids) expect(uuid).toMatch(UUID_V4);
    expect(new Set(uuids).size).toBe(200);
    db.close();
    const again = openDatabase(file);
    expect(again.prepare('SELECT uuid FROM deliveries ORDER BY id').pluck().all()).toEqual(uuids);
    again.close();
  });
});
