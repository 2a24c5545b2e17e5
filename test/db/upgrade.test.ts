import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../agent/db/migrations';
import { runCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';

/*
 * Upgrades keep data. Each fixture was written by an earlier release through its own CLI and API,
 * by test/fixtures/makePreviousRelease.mjs: previous-release.db by 0.1.0 (main at 1ee2e0e) and
 * release-0.4.0.db by 0.4.0 (main at f71281b). Today's `cronbeat serve` opens each, runs the
 * migrations it lacks and must answer with everything it held. A database from a newer Cronbeat is
 * refused in a sentence and left byte for byte as it was.
 */

/** Each fixture with its full key, printed when it was made: keys survive the upgrade, so it still signs in. */
const RELEASES = [
  { release: '0.1.0', file: resolve(__dirname, '../fixtures/previous-release.db'), key: 'cb_RCs17YmpTyPwogm8RDf6CXDwAt37BG-jExp6o5kLSns' },
  { release: '0.4.0', file: resolve(__dirname, '../fixtures/release-0.4.0.db'), key: 'cb_QY0Ocm-PDjhGI-ToHkiW8xzQTpbyapwLAs6G6CUs_gY' },
];

function copyOf(fixture: string): string {
  const dir = tempFolder('cronbeat-upgrade-');
  copyFileSync(fixture, join(dir, 'cronbeat.db'));
  return dir;
}

describe.each(RELEASES)('a database from release $release', ({ file: FIXTURE, key: FIXTURE_KEY }) => {
  let dir: string;
  let agent: ServeProcess;
  const get = async (path: string) => {
    const response = await fetch(agent.url + path, { headers: { authorization: `Bearer ${FIXTURE_KEY}` } });
    expect(response.status, path).toBe(200);
    return response.json() as Promise<any>;
  };

  beforeAll(async () => {
    dir = copyOf(FIXTURE);
    agent = await startServe(['--data-dir', dir, '--no-popups']);
  });
  afterAll(async () => {
    await agent?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is brought to this release’s schema', () => {
    const db = new Database(join(dir, 'cronbeat.db'), { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    } finally {
      db.close();
    }
  });

  it('keeps every monitor, with its schedule, tags, channels and pause', async () => {
    const monitors = await get('/api/monitors');
    expect(monitors.map((m: { name: string }) => m.name)).toEqual(['Nightly backup', 'Weekly report', 'Log rotation']);
    const [backup, report, rotate] = monitors;
    expect(backup).toMatchObject({ id: 1, timezone: 'Europe/Paris', schedule: '0 2 * * *', duration: 30, channel_ids: [1] });
    expect(backup.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(report).toMatchObject({ schedule: '0 6 * * 1', tags: ['reports', 'weekly'] });
    expect(rotate.status).toBe('paused');
    expect(rotate.paused_at).not.toBeNull();
  });

  it('keeps every pulse of the run history, in order', async () => {
    const kinds = async (id: number) => (await get(`/api/monitors/${id}/pulses`)).data.map((p: { kind: string }) => p.kind);
    expect(await kinds(1)).toEqual(['success', 'start', 'fail', 'start', 'success', 'start']);
    expect(await kinds(2)).toEqual(['success', 'start']);
    expect(await kinds(3)).toEqual(['pause']);
    const [newest] = (await get('/api/monitors/1/pulses')).data;
    expect(newest).toMatchObject({ body: 'fixture', method: 'POST', remote_address: '127.0.0.1' });
  });

  it('keeps the channels, their secrets (masked) and quiet hours', async () => {
    const channels = await get('/api/channels');
    expect(channels).toHaveLength(2);
    expect(channels[0]).toMatchObject({ name: 'Ops webhook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/cronbeat', secret: '********' } });
    expect(channels[1]).toMatchObject({
      name: 'Phone',
      kind: 'ntfy',
      settings: { topic: 'fixture-alerts', server_url: 'http://127.0.0.1:9', access_token: '********' },
      quiet_hours: { start: '22:00', end: '07:00', timezone: 'Europe/Paris' },
    });
  });

  it('keeps every key with its scope; the revoked one stays revoked', async () => {
    const keys = await get('/api/keys');
    expect(keys.map((k: { name: string; scope: string }) => [k.name, k.scope])).toEqual([
      ['fixture admin', 'full'],
      ['wall display', 'read-only'],
      ['web-01', 'ping'],
    ]);
  });

  it('keeps the server, its watcher report and alert, the certificate, the notifications and the public URL', async () => {
    const [server] = await get('/api/servers');
    expect(server).toMatchObject({ name: 'Backup box', identifier: 'backup-01', ip_address: '192.168.1.20', report_interval_seconds: 60, watched_jobs: 6 });
    expect(await get(`/api/servers/${server.id}/alerts`)).toMatchObject([{ username: 'root', command: '/usr/local/bin/backup.sh --full', change: 'added' }]);
    expect(await get('/api/ssl-certificates')).toMatchObject([{ hostname: '127.0.0.1', warn_days: 21, status: 'unreachable' }]);
    const notifications = (await get('/api/notifications?kinds=all')).data.map((n: { data: { type: string } }) => n.data.type);
    expect(notifications).toEqual(expect.arrayContaining(['ssl_certificate', 'server']));
    expect(await get('/api/settings')).toEqual({ public_url: 'https://cron.example.com', public_url_source: 'dashboard', watchdog_url: null, watchdog_url_source: null, watchdog_last_ping_at: null, watchdog_problem: null });
  });

  it('takes new pulses on its old monitors', async () => {
    const [backup] = await get('/api/monitors');
    expect((await fetch(`${agent.url}/api/pulse/${backup.token}`)).status).toBe(200);
    expect((await get('/api/monitors/1/pulses')).data).toHaveLength(7);
  });
});

describe('a database from a newer Cronbeat', () => {
  it('is refused by serve in one sentence, exit 1, and left byte for byte as it was', async () => {
    const dir = copyOf(RELEASES[0]!.file);
    const file = join(dir, 'cronbeat.db');
    const newer = new Database(file);
    newer.pragma(`user_version = ${migrations.length + 1}`);
    newer.close(); // the last connection checkpoints: the file alone holds it
    const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = digest();

    const result = await runCli(['serve', '--port', '0', '--no-popups', '--data-dir', dir]);
    expect(result.status).toBe(1);
    expect(result.stdout).not.toMatch(/listening/);
    expect(result.stderr.trim()).toBe(
      `cronbeat: The database was written by a newer Cronbeat (schema ${migrations.length + 1}, this one knows ${migrations.length}); it was left untouched.`,
    );
    expect(digest()).toBe(before);
    rmSync(dir, { recursive: true, force: true });
  });
});
