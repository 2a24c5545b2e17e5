import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { finished, spawnCli } from '../helpers/cli';
import { startTestAgent, tempDir } from '../helpers/testAgent';

/*
 * A database damaged in the middle (one page of the run history overwritten, as a bad sector or
 * a stray write would): a running agent answers a clear 503 naming `cronbeat restore` for the
 * pages it cannot read, never a 500, and keeps serving the rest; the next start checks every page
 * (listening meanwhile, writes held) and refuses in one line, leaving the file untouched.
 */

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('a database damaged in the middle', () => {
  it('answers 503 naming cronbeat restore for an unreadable page while running, then refuses to start', async () => {
    const agent = await startTestAgent({ dataDir });
    const monitor = await (
      await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly', timezone: 'UTC', schedule: '0 2 * * *', duration: 30 } })
    ).json();
    agent.store.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
         INSERT INTO pulses (monitor_id, kind, exit_code, received_at, method, body)
         SELECT ?, 'success', 0, ? + i * 60000, 'POST', printf('%.400c', 'x') FROM n`,
      )
      .run(monitor.id, Date.UTC(2026, 0, 1));
    agent.store.db.pragma('wal_checkpoint(TRUNCATE)');

    // Overwrite the header of a leaf page in the middle of the pulses table.
    const pageSize = agent.store.db.pragma('page_size', { simple: true }) as number;
    const leaves = agent.store.db.prepare("SELECT pageno FROM dbstat WHERE name = 'pulses' AND pagetype = 'leaf' ORDER BY pageno").pluck().all() as number[];
    const victim = leaves[Math.floor(leaves.length / 2)];
    const fd = openSync(databaseFile(dataDir), 'r+');
    writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (victim - 1) * pageSize);
    closeSync(fd);
    agent.store.db.pragma('shrink_memory'); // forget cached pages: the next reads go to the file

    const statuses = new Map<number, number>();
    let damaged: { message: string } | undefined;
    for (let page = 1; page <= 20; page++) {
      const response = await agent.api(`/api/monitors/${monitor.id}/pulses?page=${page}&per_page=100`);
      statuses.set(page, response.status);
      if (response.status === 503) damaged = await response.json();
    }
    expect([...statuses.values()]).not.toContain(500);
    expect(damaged?.message).toMatch(/damaged/);
    expect(damaged?.message).toContain('cronbeat restore');
    expect((await agent.api('/api/monitors')).status).toBe(200);
    await agent.close();

    const before = sha(databaseFile(dataDir));
    const serve = spawnCli(['serve', '--port', '0', '--no-popups', '--data-dir', dataDir]);
    const killer = setTimeout(() => serve.kill('SIGTERM'), 10_000);
    // It listens at once and checks meanwhile: a pulse sent then waits for the check,
    // and is refused with the reason, never recorded.
    let pulse: Promise<string> | undefined;
    serve.stdout!.on('data', (chunk) => {
      const url = /listening on (http:\S+)/.exec(String(chunk))?.[1];
      if (url && !pulse) pulse = fetch(`${url}/api/pulse/${monitor.token}`).then(async (r) => `${r.status} ${(await r.json()).message}`, () => 'closed');
    });
    const result = await finished(serve);
    clearTimeout(killer);
    if (pulse) expect(await pulse).toMatch(/^(503 .*is damaged.*cronbeat restore|closed$)/);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cronbeat: .*cronbeat\.db is damaged \(integrity check: .+\); it was left untouched\. To go on, bring back your latest backup with `cronbeat restore FILE`\.$/);
    // The problem itself (which page, what is wrong), not SQLite's "*** in database main ***" header.
    expect(lines[0]).not.toContain('***');
    expect(lines[0]).toMatch(/integrity check: .*[Pp]age \d+/);
    expect(sha(databaseFile(dataDir))).toBe(before);
  });
});
