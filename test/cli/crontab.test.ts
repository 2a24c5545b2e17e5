import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { closedPort, finished, runCli, spawnCli, tempFolder } from '../helpers/cli';

// Every test starts real node processes, several seconds' worth on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const fixtures = join(__dirname, 'fixtures');
let agent: TestAgent;
// Where discover installs its entry point (a stable folder, never a temporary one; see crontabFailOpen.test.ts).
const shimDir = mkdtempSync('/var/lib/cronbeat-test-');
const shim = join(shimDir, 'cronbeat');
process.env.CRONBEAT_SHIM_DIR = shimDir;

beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(async () => {
  await agent.stop();
  rmSync(shimDir, { recursive: true, force: true });
});

async function monitors(): Promise<Array<{ id: number; name: string; schedule: string; timezone: string; token: string; duration: number }>> {
  return (await agent.api('/api/monitors')).json();
}

describe('cronbeat crontab scan', () => {
  it('lists the jobs of fixture files as JSON, with the user column of the system format', async () => {
    const result = await runCli(['crontab', 'scan', '--json', '--file', join(fixtures, 'user.crontab'), '--system-file', join(fixtures, 'system.crontab')]);
    expect(result.status).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((row) => [row.line, row.user === 'postgres' ? 'postgres' : '', row.schedule, row.status])).toContainEqual([8, 'postgres', '@weekly', 'monitorable']);
    expect(rows.find((row) => row.schedule === '@reboot')).toMatchObject({ status: 'not monitorable' });
    expect(rows.find((row) => row.status === 'invalid')).toMatchObject({ line: 14 });
    expect(result.stdout).not.toContain('hunter2');
    expect(result.stdout).not.toContain('topsecret');
  });

  it('prints a table by default, each crontab under its name', async () => {
    const result = await runCli(['crontab', 'scan', '--file', join(fixtures, 'user.crontab')]);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`${join(fixtures, 'user.crontab')}:`);
    expect(lines[1]).toMatch(/^ {2}LINE\s+USER\s+SCHEDULE\s+TIMEZONE\s+STATUS\s+COMMAND$/);
    expect(result.stdout).toContain('/usr/bin/find /tmp -mtime +7 -delete');
    expect(result.stdout).not.toContain('hunter2');
    // Why a line is not monitored, under the table in full.
    expect(result.stdout).toContain('  line 11, not monitorable: @reboot runs only when the machine starts');
  });

  it('fits 100 columns whatever the length of a command or a reason; the JSON keeps the whole command', async () => {
    const file = join(tempFolder(), 'long-named-crontab-file-for-a-very-long-path-indeed');
    const long = `/usr/local/bin/rsync-backup --source /srv/data/${'x'.repeat(150)} --target backup@storage.example.com:/backups/nightly --verbose`;
    writeFileSync(file, `0 3 * * * ${long}\n*/5 9-17 * * MON-FRI ${long} % input\n61 * * * * ${long}\n`);
    const result = await runCli(['crontab', 'scan', '--file', file]);
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
    // Each job's line, its command cut at the edge; the line with a bad schedule says so below.
    expect(lines.filter((line) => / {2}[12] .*\/usr\/local\/bin\/rsync-backup --source .*…$/.test(line))).toHaveLength(2);
    expect(lines.filter((line) => /^ {2}3 .*…$/.test(line))).toHaveLength(1);
    expect(result.stdout).toContain('line 3, invalid:');
    const json = JSON.parse((await runCli(['crontab', 'scan', '--file', file, '--json'])).stdout) as Array<{ command: string }>;
    expect(json[0]!.command).toBe(long);
  });
});

describe('cronbeat crontab discover', () => {
  it('creates one monitor per job, rewrites the file with a backup, and changes nothing the second time', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    copyFileSync(join(fixtures, 'user.crontab'), file);
    const original = readFileSync(file, 'utf8');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder, TZ: 'Asia/Tokyo' };

    const dry = await runCli(['crontab', 'discover', '--file', file, '--dry-run'], { env });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/Would create 5 monitors/);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(await monitors()).toHaveLength(0);

    const first = await runCli(['crontab', 'discover', '--file', file, '--duration', '15'], { env });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const created = await monitors();
    expect(created.map((m) => [m.name, m.schedule, m.timezone, m.duration])).toEqual([
      ['/usr/local/bin/sync-mail.sh', '*/15 * * * *', 'Asia/Tokyo', 15],
      ['cd /srv/app && ./backup.sh --password=***', '0 3 * * *', 'Asia/Tokyo', 15],
      ['curl -fsS https://user:***@reports.example.com/run?token=*** -o /tmp/report', '30 6 * * MON-FRI', 'Europe/Paris', 15],
      ['/usr/bin/find /tmp -mtime +7 -delete', '0 0 * * *', 'Europe/Paris', 15],
      ['mail -s "Monthly report" root', '0 9 1 * *', 'Europe/Paris', 15],
    ]);

    const rewritten = readFileSync(file, 'utf8').split('\n');
    // Each line names its monitor in a comment the shell skips (before the stdin after %).
    const ids = (await (await agent.api('/api/monitors')).json()).map((m: { id: number }) => m.id) as number[];
    expect(rewritten[5]).toBe(
      `*/15 * * * * set -- /usr/local/bin/sync-mail.sh; [ -r ${shim} ] && [ -x ${shim} ] && exec ${shim} run --url ${agent.url} ${created[0].token} -- "$@"; exec "$@" # cronbeat monitor #${ids[0]}: /usr/local/bin/sync-mail.sh`,
    );
    expect(rewritten[11]).toMatch(
      new RegExp(` set -- /bin/bash -c 'mail -s "Monthly report" root'; .* -- "\\$@"; exec "\\$@" # cronbeat monitor #${ids[4]}: mail -s "Monthly report" root%Hello,%%The report is ready: 100\\\\% done.%$`),
    );
    expect(rewritten[10]).toBe('@reboot /usr/local/bin/start-tunnel');
    const backups = readdirSync(folder).filter((name) => name.startsWith('.crontab.cronbeat-backup-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(folder, backups[0]), 'utf8')).toBe(original);

    const second = await runCli(['crontab', 'discover', '--file', file], { env });
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/5 jobs already run through cronbeat/);
    expect(second.stdout).toMatch(/Nothing to do/);
    expect(await monitors()).toHaveLength(5);
    expect(readFileSync(file, 'utf8')).toBe(rewritten.join('\n'));
    expect(readdirSync(folder).filter((name) => name.startsWith('.crontab.cronbeat-backup-'))).toHaveLength(1);

    // --undo puts every line back byte for byte, the comments gone with the wrappers.
    expect((await runCli(['crontab', 'discover', '--undo', '--file', file], { env })).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('refuses H (a five-field cron has none) and stores macros as five fields', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, 'H * * * * /usr/bin/hashed-minute\n0 H * * * /usr/bin/hashed-hour\n@hourly /usr/bin/hourly-job\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder, TZ: 'UTC' };
    const before = (await monitors()).length;
    const result = await runCli(['crontab', 'discover', '--file', file], { env });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Line 1 left alone: schedule "H * * * *": The minute field has "H": a five-field cron has no H.');
    expect(result.stdout).toContain('Line 2 left alone: schedule "0 H * * *": The hour field has "H"');
    const made = (await monitors()).slice(before);
    expect(made.map((m) => [m.name, m.schedule])).toEqual([['/usr/bin/hourly-job', '0 * * * *']]);
    expect(readFileSync(file, 'utf8').split('\n').slice(0, 2)).toEqual(['H * * * * /usr/bin/hashed-minute', '0 H * * * /usr/bin/hashed-hour']);
  });

  it('asks for an API token in one line', async () => {
    const result = await runCli(['crontab', 'discover', '--file', join(fixtures, 'user.crontab')], { env: { CRONBEAT_URL: agent.url } });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('cronbeat: An API token is needed: set CRONBEAT_API_TOKEN (make one with `cronbeat token create`) or pass --token.\n');
  });
});

describe('the user crontab (crontab -l / crontab -)', () => {
  /** A stand-in `crontab` first on PATH, keeping the user's crontab in a file (cron is not installed here). */
  function fakeCrontab(folder: string): { PATH: string; CRONTAB_FILE: string } {
    const bin = join(folder, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'crontab'),
      '#!/bin/sh\ncase "$1" in\n  -l) [ -f "$CRONTAB_FILE" ] || { echo "no crontab for $(id -un)" >&2; exit 1; }; cat "$CRONTAB_FILE" ;;\n  -) cat > "$CRONTAB_FILE" ;;\nesac\n',
      { mode: 0o755 },
    );
    return { PATH: `${bin}:${process.env.PATH}`, CRONTAB_FILE: join(folder, 'user-crontab') };
  }

  it('scans nothing for a user without a crontab, and discovers through crontab -l and crontab -', async () => {
    const folder = tempFolder();
    const env = { ...fakeCrontab(folder), CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const none = await runCli(['crontab', 'scan', '--json'], { env });
    expect(none.status).toBe(0);
    expect(JSON.parse(none.stdout).filter((row: { source: string }) => row.source === 'crontab -l')).toEqual([]);

    writeFileSync(env.CRONTAB_FILE, '# mine\n*/10 * * * * /home/me/poll.sh\n');
    const scanned = JSON.parse((await runCli(['crontab', 'scan', '--json'], { env })).stdout) as Array<{ source: string; command: string }>;
    expect(scanned.filter((row) => row.source === 'crontab -l').map((row) => row.command)).toEqual(['/home/me/poll.sh']);

    const before = (await monitors()).length;
    const discovered = await runCli(['crontab', 'discover'], { env });
    expect(discovered.stderr).toBe('');
    expect(discovered.status).toBe(0);
    const made = (await monitors()).slice(before);
    expect(made.map((m) => m.name)).toEqual(['/home/me/poll.sh']);
    expect(readFileSync(env.CRONTAB_FILE, 'utf8')).toMatch(new RegExp(`^# mine\n\\*/10 \\* \\* \\* \\* set -- /home/me/poll.sh; .* run --url \\S+ ${made[0].token} -- "\\$@"; exec "\\$@" # cronbeat monitor #${made[0].id}: /home/me/poll.sh\n$`));
    const backup = readdirSync(folder).find((name) => name.startsWith('crontab-backup-'));
    expect(readFileSync(join(folder, backup!), 'utf8')).toBe('# mine\n*/10 * * * * /home/me/poll.sh\n');
  });
});

describe('cronbeat crontab watch', () => {
  it('alerts exactly once for an edited line, and never again after a restart', async () => {
    const created = await agent.api('/api/servers', { method: 'POST', json: { name: 'web 1', ip_address: '10.0.0.7', identifier: 'web-1' } });
    expect(created.status).toBe(201);
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    copyFileSync(join(fixtures, 'system.crontab'), file);
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watchOnce = () => runCli(['crontab', 'watch', '--server', 'web-1', '--once', '--system-file', file], { env });
    const serverAlerts = async () => {
      const page = (await (await agent.api('/api/notifications?per_page=100&kinds=all')).json()) as { data: Array<{ data: Record<string, unknown> }> };
      return page.data.filter((n) => n.data.type === 'server').map((n) => n.data);
    };

    const baseline = await watchOnce();
    expect(baseline.status).toBe(0);
    expect(baseline.stdout).toMatch(/watching 4 cron jobs of 3 users on web-1/);
    expect(await serverAlerts()).toEqual([]);

    writeFileSync(file, readFileSync(file, 'utf8').replace('PGPASSWORD=topsecret pg_dumpall', 'PGPASSWORD=topsecret pg_dumpall --clean'));
    const edited = await watchOnce();
    expect(edited.status).toBe(0);
    expect(await watchOnce()).toMatchObject({ status: 0 });
    const alerts = await serverAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ username: 'postgres', server_identifier: 'web-1', command: '@weekly PGPASSWORD=*** pg_dumpall --clean | gzip > /var/backups/pg.sql.gz' });
  });

  it('keeps an alert on disk while the API is down and delivers it once when it is back', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '0 1 * * * /a.sh\n');
    const down = { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const up = { ...down, CRONBEAT_URL: agent.url };
    await agent.api('/api/servers', { method: 'POST', json: { name: 'db', ip_address: '10.0.0.8', identifier: 'db-1' } });
    const watchOnce = (env: Record<string, string>) => runCli(['crontab', 'watch', '--server', 'db-1', '--once', '--file', file], { env });

    expect((await watchOnce(down)).status).toBe(0); // baseline: nothing to send
    writeFileSync(file, '0 1 * * * /a.sh\n0 2 * * * /b.sh\n');
    const failed = await watchOnce(down);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/1 alert waiting/);
    expect((await watchOnce(up)).status).toBe(0);
    expect((await watchOnce(up)).status).toBe(0);
    const page = (await (await agent.api('/api/notifications?per_page=100&kinds=all')).json()) as { data: Array<{ data: Record<string, unknown> }> };
    expect(page.data.filter((n) => n.data.server_identifier === 'db-1').map((n) => n.data.command)).toEqual(['0 2 * * * /b.sh']);
  });

  it('keeps watching every --interval until SIGTERM, then exits 0', async () => {
    await agent.api('/api/servers', { method: 'POST', json: { name: 'app', ip_address: '10.0.0.9', identifier: 'app-1' } });
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '0 1 * * * /a.sh\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const child = spawnCli(['crontab', 'watch', '--server', 'app-1', '--interval', '1', '--file', file], { env });
    const done = finished(child);
    let output = '';
    const printed = (pattern: RegExp) =>
      new Promise<void>((seen) => {
        const check = () => pattern.test(output) && seen();
        child.stdout!.on('data', (chunk: Buffer | string) => {
          output += String(chunk);
          check();
        });
        check();
      });
    await printed(/watching 1 cron job/);
    writeFileSync(file, '0 1 * * * /a.sh --all\n');
    await printed(/altered for \S+: 0 1 \* \* \* \/a\.sh --all/);
    child.kill('SIGTERM');
    expect((await done).status).toBe(0);
  });
});
