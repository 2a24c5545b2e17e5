import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { migrations } from '../../agent/db/migrations';
import { tagsOf } from '../../agent/db/monitorLines';
import { badgeSvg, shieldsEndpoint, tagBadge } from '../../agent/domain/formats/badge';
import { monitorStatus } from '../../agent/domain/monitors/status';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/*
 * A tag's badge reads the tag's monitors through an index kept from monitors.tags: whatever writes
 * the tags (create, edit, a job's line, delete, an older database), the badge says what a look at
 * every monitor of the company would.
 */

let agent: TestAgent;
let badgeKey: string;
let ping: string;
let legacyId: number;
beforeAll(async () => {
  // A database from before the index, with a tagged monitor: the upgrade indexes it.
  const dataDir = tempDir();
  const version = migrations.findIndex((sql) => sql.includes('CREATE TABLE monitor_tags'));
  expect(version).toBeGreaterThan(23);
  const old = new Database(databaseFile(dataDir));
  old.exec(migrations.slice(0, version).join('\n'));
  old.pragma(`user_version = ${version}`);
  old.exec(`INSERT INTO companies (id, name, created_at) VALUES (1, 'c', 0)`);
  legacyId = Number(
    old
      .prepare(
        `INSERT INTO monitors (company_id, name, token, timezone, schedule, duration, tags, last_run_at, created_at, updated_at)
         VALUES (1, 'legacy', 'a1b2c3d4-0000-4000-8000-000000000001', 'UTC', '0 3 * * *', 60, 'nightly prod', 0, 0, 0)`,
      )
      .run().lastInsertRowid,
  );
  old.close();
  agent = await startTestAgent({ dataDir });
  badgeKey = agent.store.apiTokens.create({ companyId: 1, name: 'readme', scope: 'badge', now: Date.now() }).token;
  ping = agent.store.apiTokens.create({ companyId: 1, name: 'ping', scope: 'ping', now: Date.now() }).token;
});
afterAll(() => agent.stop());

const badge = (file: string) => fetch(`${agent.url}/api/badges/${badgeKey}/tags/${file}`);

/** The badge as a look at every live monitor of the company gives it; null when no monitor has the tag. */
function byScan(tag: string, format: 'svg' | 'json'): string | null {
  const statuses = agent.store.monitors
    .list(1)
    .filter((row) => tagsOf(row).includes(tag))
    .map(monitorStatus);
  const face = tagBadge(tag, statuses);
  if (!face) return null;
  return format === 'svg' ? badgeSvg(face) : JSON.stringify(shieldsEndpoint(face, 300));
}

async function expectSameAsScan(tag: string): Promise<void> {
  for (const format of ['svg', 'json'] as const) {
    const answer = await badge(`${tag}.${format}`);
    const expected = byScan(tag, format);
    if (expected === null) {
      expect(answer.status, `${tag}.${format}`).toBe(404);
    } else {
      expect(answer.status, `${tag}.${format}`).toBe(200);
      const text = await answer.text();
      expect(format === 'json' ? JSON.stringify(JSON.parse(text)) : text, `${tag}.${format}`).toBe(expected);
    }
  }
}

describe('a tag\'s badge', () => {
  it('says what a scan of every monitor says, through create, edit, lines, failures and deletes', async () => {
    const tags = ['nightly', 'prod', 'db', 'web', 'server:web-01'];
    const check = async () => {
      for (const tag of tags) await expectSameAsScan(tag);
    };
    await check();
    expect(await (await badge('nightly.json')).json()).toMatchObject({ label: 'nightly' });

    const create = async (name: string, tagList: string[]) =>
      (await (await agent.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '0 3 * * *', duration: 5, tags: tagList } })).json()) as { id: number };
    const db = await create('db', ['db', 'prod']);
    const web = await create('web', ['web']);
    await check();

    await agent.api(`/api/monitors/${web.id}`, { method: 'PATCH', json: { tags: ['prod', 'web'] } });
    await agent.api(`/api/monitors/${db.id}`, { method: 'PATCH', json: { tags: [] } });
    await check();
    expect((await badge('db.svg')).status).toBe(404);

    // A job's line with --server tags its monitor; its failure turns the tag's badge.
    await fetch(`${agent.url}/api/pulse/key/${ping}/backup/0?create=1&schedule=0+3+*+*+*&server=web-01`);
    await check();
    await fetch(`${agent.url}/api/pulse/key/${ping}/backup/1`);
    await check();
    expect(await (await badge('server:web-01.json')).json()).toMatchObject({ color: expect.any(String) });

    await agent.api(`/api/monitors/${legacyId}`, { method: 'DELETE' });
    await check();
    expect((await badge('nightly.svg')).status).toBe(404);
  });
});

describe('a badge that is not there', () => {
  it('is never kept by a cache: the README that names it before its monitor or tag exists shows it once it does', async () => {
    const before = await badge('later.svg');
    expect(before.status).toBe(404);
    expect(before.headers.get('cache-control')).toBe('no-store');
    const full = await fetch(`${agent.url}/api/badges/${agent.token}/tags/later.svg`);
    expect(full.status).toBe(403);
    expect(full.headers.get('cache-control')).toBe('no-store');
    const made = await agent.api('/api/monitors', { method: 'POST', json: { name: 'later', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, tags: ['later'] } });
    expect(made.status).toBe(201);
    const after = await badge('later.svg');
    expect(after.status).toBe(200);
    expect(after.headers.get('cache-control')).toBe('public, max-age=60');
  });
});
