import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';

vi.setConfig({ testTimeout: 30_000 });

/*
 * `crontab watch` watches the scripts run-parts runs as root (/etc/cron.daily…, or --run-parts
 * DIR), which no crontab line names; `crontab scan` lists them too, read by the same code: the
 * same names run-parts runs (no dots for Debian's; leftovers and hidden files never), links
 * followed, folders skipped, and whether each runs.
 */

function runPartsFolder() {
  const folder = join(tempFolder(), 'cron.daily');
  mkdirSync(folder);
  const script = (name: string, mode: number) => {
    writeFileSync(join(folder, name), '#!/bin/sh\necho hi\n');
    chmodSync(join(folder, name), mode);
  };
  script('logrotate', 0o755);
  script('backup-db', 0o644);
  script('.placeholder', 0o755);
  script('old~', 0o755);
  mkdirSync(join(folder, 'subfolder'));
  symlinkSync(join(folder, 'logrotate'), join(folder, 'zz-linked'));
  return folder;
}

type Row = { source: string; line: number | null; user: string; status: string; reason: string; name: string; command: string };

describe('cronbeat crontab scan and run-parts', () => {
  it('lists the scripts of a --run-parts folder as the watcher reads them, beside the crontabs given', async () => {
    const folder = runPartsFolder();
    const crontab = join(tempFolder(), 'crontab');
    writeFileSync(crontab, '25 6 * * * root cd / && run-parts --report /etc/cron.daily\n');
    const result = await runCli(['crontab', 'scan', '--json', '--system-file', crontab, '--run-parts', folder]);
    expect(result.status, result.stderr).toBe(0);
    const rows = JSON.parse(result.stdout) as Row[];
    expect(rows.map((row) => [row.source, row.line])).toEqual([[crontab, 1], ...['backup-db', 'logrotate', 'zz-linked'].map(() => [folder, null])]);
    const scripts = rows.filter((row) => row.source === folder);
    expect(scripts.map((row) => [row.name, row.user, row.status, row.command])).toEqual([
      ['backup-db', 'root', 'not monitorable', join(folder, 'backup-db')],
      ['logrotate', 'root', 'not monitorable', join(folder, 'logrotate')],
      ['zz-linked', 'root', 'not monitorable', join(folder, 'zz-linked')],
    ]);
    expect(scripts[0].reason).toBe('not executable: run-parts skips it');
    expect(scripts[1].reason).toBe('run by run-parts with the rest of its folder, from no crontab line of its own');
  });

  it('shows them in the table under their folder, why each is not monitored below it', async () => {
    const folder = runPartsFolder();
    const result = await runCli(['crontab', 'scan', '--run-parts', folder]);
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`${folder}:`);
    expect(lines[1]).toMatch(/^ {2}LINE\s+USER\s+SCHEDULE\s+TIMEZONE\s+STATUS\s+COMMAND$/);
    expect(lines[2]).toMatch(new RegExp(`^ {2}-\\s+root\\s+-\\s+-\\s+not monitorable\\s+${join(folder, 'backup-db')}$`));
    expect(result.stdout).toContain('  backup-db, not monitorable: not executable: run-parts skips it\n');
    expect(result.stdout).not.toContain('.placeholder');
    expect(result.stdout).not.toContain('old~');
    expect(result.stdout).not.toContain('subfolder');
  });

  // The plain names every run-parts runs (Debian's and cronie's alike), of files: listed whichever this machine has.
  const machineScripts = ['/etc/cron.hourly', '/etc/cron.daily', '/etc/cron.weekly', '/etc/cron.monthly'].flatMap((folder) =>
    (existsSync(folder) ? readdirSync(folder) : [])
      .filter((name) => /^[A-Za-z0-9_-]+$/.test(name) && statSync(join(folder, name), { throwIfNoEntry: false })?.isFile())
      .map((name) => join(folder, name)),
  );
  it.skipIf(machineScripts.length === 0)("lists the scripts of the machine's run-parts folders when no file is given", async () => {
    const result = await runCli(['crontab', 'scan', '--json']);
    expect(result.status, result.stderr).toBe(0);
    const listed = (JSON.parse(result.stdout) as Row[]).filter((row) => row.line === null).map((row) => row.command);
    expect(listed).toEqual(expect.arrayContaining(machineScripts));
  });

  it('refuses a --run-parts folder that is not there, exit 2, listing nothing', async () => {
    const missing = join(tempFolder(), 'no-such');
    const result = await runCli(['crontab', 'scan', '--run-parts', missing]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`cronbeat: --run-parts ${missing}: no such folder.\n`);
  });
});
