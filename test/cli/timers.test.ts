import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { discoverAgent } from './discoverAgent';
import { runCli, tempFolder } from '../helpers/cli';

// Real agent, real CLI processes: several seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const { agent: testAgent, shimDir } = discoverAgent();
// A system service may run as another user (User=): the entry point must be open to all.
chmodSync(shimDir, 0o755);
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const HOME = '/home/tester';

function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/**
 * A machine's unit folders: a vendor timer enabled in /etc, a timer with Unit= and a period, an
 * instance of a template named with an escape, a timer no one enables, and a user timer.
 */
function machine(): string {
  const root = tempFolder('cronbeat-timers-');
  chmodSync(root, 0o755);
  const lib = 'usr/lib/systemd/system';
  const service = '[Unit]\nDescription=job\n[Service]\nType=oneshot\nExecStart=/bin/true\n';
  put(root, `${lib}/backup.timer`, '[Timer]\nOnCalendar=Mon..Fri 02:30\nOnCalendar=Sat 12:00 UTC\nRandomizedDelaySec=30min\nPersistent=true\n[Install]\nWantedBy=timers.target\n');
  put(root, `${lib}/backup.service`, service);
  put(root, `${lib}/poll.timer`, '[Timer]\nOnBootSec=5min\nOnUnitActiveSec=15min\nAccuracySec=1s\nUnit=poller-job.service\n');
  put(root, `${lib}/poller-job.service`, service);
  put(root, `${lib}/fsck@.timer`, '[Timer]\nOnCalendar=daily\n');
  put(root, `${lib}/fsck@.service`, '[Service]\nType=oneshot\nExecStart=/bin/echo %I\n');
  put(root, `${lib}/idle.timer`, '[Timer]\nOnCalendar=hourly\n');
  put(root, `${lib}/idle.service`, service);
  const wants = join(root, 'etc/systemd/system/timers.target.wants');
  mkdirSync(wants, { recursive: true });
  symlinkSync(`/${lib}/backup.timer`, join(wants, 'backup.timer'));
  symlinkSync(`/${lib}/poll.timer`, join(wants, 'poll.timer'));
  symlinkSync(`/${lib}/fsck@.timer`, join(wants, 'fsck@dev-disk-by\\x2duuid-1234.timer'));
  const user = `${HOME}/.config/systemd/user`;
  put(root, `${user}/notes-sync.timer`, '[Timer]\nOnCalendar=*:0/20\n');
  put(root, `${user}/notes-sync.service`, service);
  mkdirSync(join(root, user, 'timers.target.wants'));
  symlinkSync('../notes-sync.timer', join(root, user, 'timers.target.wants/notes-sync.timer'));
  return root;
}

/** Every file under `root` with its text (symlinks as their target), to see exactly what changed. */
function tree(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory()) {
        files[`${relative(root, path)}/`] = '';
        walk(path);
      } else if (name.isSymbolicLink()) files[relative(root, path)] = '-> link';
      else files[relative(root, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return files;
}

async function monitors(): Promise<Array<{ id: number; name: string; schedule: string; token: string; duration: number; tags: string[] }>> {
  return (await testAgent().api('/api/monitors')).json();
}

/** systemd-analyze verify of a service with its drop-ins (found through SYSTEMD_UNIT_PATH); '' when it has nothing to say. */
function verify(root: string, folders: string[], service: string, user: boolean): string {
  const runtime = tempFolder('cronbeat-runtime-');
  const unitPath = `${folders.map((folder) => join(root, folder)).join(':')}:`;
  // An instance is verified by its name in its template's folder: systemd-analyze loads the template.
  const template = service.replace(/@.+\./, '@.');
  const folder = folders.find((f) => statSync(join(root, f, template), { throwIfNoEntry: false }));
  const file = join(root, folder!, service);
  const result = spawnSync('systemd-analyze', ['verify', ...(user ? ['--user'] : []), file!], {
    encoding: 'utf8',
    env: { ...process.env, XDG_RUNTIME_DIR: runtime, SYSTEMD_LOG_LEVEL: 'warning', SYSTEMD_UNIT_PATH: unitPath },
  });
  return `${result.stdout}${result.stderr}`.trim();
}

function envFor(folder: string) {
  return { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: folder, CRONBEAT_SHIM_DIR: shimDir, HOME, TZ: 'Europe/Paris' };
}

const SYSTEM = ['etc/systemd/system', 'usr/lib/systemd/system'];
const dropIn = (service: string) => `etc/systemd/system/${service}.d/cronbeat.conf`;

describe('cronbeat timers discover', () => {
  it('makes one monitor per enabled timer, wires each service with a drop-in systemd accepts, and finds them again', async () => {
    const root = machine();
    const env = envFor(tempFolder());
    const before = tree(root);
    const count = (await monitors()).length;

    const dry = await runCli(['timers', 'discover', '--root', root, '--dry-run'], { env });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/backup\.timer\s+Mon\.\.Fri 02:30 \| Sat 12:00 UTC\s+1800s\s+60s\s+yes\s+backup\.service\s+to monitor/);
    expect(dry.stdout).toMatch(/idle\.timer .* not enabled/);
    expect(dry.stdout).toMatch(/Would create 3 monitors/);
    // Each monitor with the grace it would get (the schedule's own plus systemd's delays), as crontab discover's dry run shows it.
    expect(dry.stdout).toContain('  backup.timer: a monitor, grace 91 min; backup.service pulses through ');
    expect(dry.stdout).toContain('  poll.timer: a monitor, grace 16 min; poller-job.service pulses through ');
    // No monitor is made, so none is named by an id it does not have.
    expect(dry.stdout).not.toMatch(/monitor #0\b/);
    expect(dry.stdout).toContain('pulses to monitor #<monitor-id>.');
    expect(tree(root)).toEqual(before);
    expect((await monitors()).length).toBe(count);

    const first = await runCli(['timers', 'discover', '--root', root, '--server', 'web-1'], { env });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('`systemctl daemon-reload`');
    const made = (await monitors()).slice(count);
    expect(made.map((m) => [m.name, m.schedule, m.duration, m.tags])).toEqual([
      ['backup.timer', 'Mon..Fri 02:30\nSat 12:00 UTC', 60 + 31, ['server:web-1', 'timer:backup']],
      ['fsck@dev-disk-by\\x2duuid-1234.timer', 'daily', 60 + 1, ['server:web-1', 'timer:fsck_dev-disk-by-uuid-1234']],
      ['poll.timer', '@every 15m', 15 + 1, ['server:web-1', 'timer:poll']],
    ]);
    const written = Object.keys(tree(root)).filter((path) => !(path in before));
    expect(written.sort()).toEqual(
      ['backup.service', 'fsck@dev-disk-by\\x2duuid-1234.service', 'poller-job.service'].flatMap((service) => [`etc/systemd/system/${service}.d/`, dropIn(service)]).sort(),
    );
    const conf = readFileSync(join(root, dropIn('backup.service')), 'utf8');
    expect(conf).toContain(made[0]!.token);
    expect(conf).not.toContain(testAgent().token);
    if (hasAnalyze) {
      for (const service of ['backup.service', 'fsck@dev-disk-by\\x2duuid-1234.service', 'poller-job.service']) expect(verify(root, SYSTEM, service, false)).toBe('');
    }

    const again = await runCli(['timers', 'discover', '--root', root], { env });
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/backup\.timer .* monitored/);
    expect(again.stdout).toContain('Nothing to do');
    expect((await monitors()).length).toBe(count + 3);

    const withDropIns = tree(root);
    const undo = await runCli(['timers', 'discover', '--root', root, '--undo'], { env });
    expect(undo.status).toBe(0);
    expect(undo.stdout).toMatch(/Removed 3 drop-ins/);
    expect(tree(root)).toEqual(before);

    const back = await runCli(['timers', 'discover', '--root', root, '--server', 'web-1'], { env });
    expect(back.status).toBe(0);
    expect(back.stdout).toMatch(/backup\.timer: the monitor an earlier discover made, #\d+, again/);
    expect((await monitors()).length).toBe(count + 3);
    expect(tree(root)).toEqual(withDropIns);
  });

  it('takes an earlier monitor again with the schedule the timer has now, when it changed while unwired', async () => {
    const root = machine();
    const env = envFor(root);
    expect((await runCli(['timers', 'discover', '--root', root], { env })).status).toBe(0);
    const first = (await monitors()).filter((m) => m.name === 'backup.timer').sort((a, b) => b.id - a.id)[0]!;
    expect((await runCli(['timers', 'discover', '--root', root, '--undo'], { env })).status).toBe(0);

    // Edited while it had no drop-in: the old monitor would await 02:30 runs that no longer come.
    put(root, 'usr/lib/systemd/system/backup.timer', '[Timer]\nOnCalendar=*-*-* 04:15\nRandomizedDelaySec=2h\n[Install]\nWantedBy=timers.target\n');
    const back = await runCli(['timers', 'discover', '--root', root], { env });
    expect(back.status).toBe(0);
    expect(back.stdout).toContain(`backup.timer: the monitor an earlier discover made, #${first.id}, again, now with its schedule *-*-* 04:15 and grace 181 min`);
    const again = (await monitors()).find((m) => m.id === first.id)!;
    expect([again.schedule, again.duration]).toEqual(['*-*-* 04:15', 60 + 1 + 120]);
    // Unchanged timers are taken as they were.
    expect(back.stdout).toMatch(/poll\.timer: the monitor an earlier discover made, #\d+, again;/);
  });

  it('wires user timers under the user folder with --user, apart from the system ones', async () => {
    const root = machine();
    const env = envFor(tempFolder());
    const result = await runCli(['timers', 'discover', '--root', root, '--user'], { env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('`systemctl --user daemon-reload`');
    const made = (await monitors()).find((m) => m.name === 'notes-sync.timer (user)')!;
    expect(made).toMatchObject({ schedule: '*:0/20', tags: ['timer:notes-sync'] });
    const folder = `${HOME.slice(1)}/.config/systemd/user`;
    expect(readFileSync(join(root, folder, 'notes-sync.service.d/cronbeat.conf'), 'utf8')).toContain(made.token);
    expect(statSync(join(root, 'etc/systemd/system/backup.service.d'), { throwIfNoEntry: false })).toBeUndefined();
    if (hasAnalyze) expect(verify(root, [folder], 'notes-sync.service', true)).toBe('');
  });

  it('says a read-only unit folder cannot be written, and makes nothing', async () => {
    const root = machine();
    const data = tempFolder();
    chmodSync(data, 0o777);
    chmodSync(join(root, 'etc/systemd/system'), 0o555);
    const before = tree(root);
    const count = (await monitors()).length;
    const result = await runCli(['timers', 'discover', '--root', root], {
      env: envFor(data),
      // Root writes in a folder whatever its mode: the folder is read-only to nobody.
      ...(isRoot ? { user: { uid: NOBODY, gid: NOBODY } } : {}),
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`Cannot write in ${join(root, 'etc/systemd/system')} (EACCES): nothing was changed.`);
    expect(tree(root)).toEqual(before);
    expect((await monitors()).length).toBe(count);
  });

  it('takes back the drop-ins already written when one cannot be, and a later discover takes the same monitors', async () => {
    const root = machine();
    const env = envFor(tempFolder());
    // In the way of the last drop-in: a file where its folder goes.
    writeFileSync(join(root, 'etc/systemd/system/poller-job.service.d'), 'not a folder');
    const before = tree(root);
    const count = (await monitors()).length;
    const result = await runCli(['timers', 'discover', '--root', root], { env });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/cannot write a drop-in \(ENOTDIR.*took back the ones written/);
    expect(tree(root)).toEqual(before);
    expect((await monitors()).length).toBe(count + 3);

    rmSync(join(root, 'etc/systemd/system/poller-job.service.d'));
    const again = await runCli(['timers', 'discover', '--root', root], { env });
    expect(again.status).toBe(0);
    expect(again.stdout.match(/the monitor an earlier discover made/g)).toHaveLength(3);
    expect((await monitors()).length).toBe(count + 3);
  });

  it('reads a timer as systemd loads it: lines it ignores left out, its time spans, and no unit whose name it refuses', async () => {
    const root = tempFolder('cronbeat-timers-');
    const lib = 'usr/lib/systemd/system';
    const service = '[Service]\nType=oneshot\nExecStart=/bin/true\n';
    const wants = join(root, 'etc/systemd/system/timers.target.wants');
    mkdirSync(wants, { recursive: true });
    const timer = (name: string, text: string) => {
      put(root, `${lib}/${name}.timer`, text);
      put(root, `${lib}/${name}.service`, service);
      symlinkSync(`/${lib}/${name}.timer`, join(wants, `${name}.timer`));
    };
    // systemd skips an OnCalendar= it refuses (a cron line, two spaces before the zone) and runs by the others.
    timer('mixed', '[Timer]\nOnCalendar=0 3 * * *\nOnCalendar=daily\nOnCalendar=12:00  UTC\n');
    // Spans as systemd's parse_sec reads them: a number after a unit is seconds, ".5s", "+".
    timer('spans', '[Timer]\nOnCalendar=hourly\nRandomizedDelaySec=1h30\nAccuracySec=.5s\n');
    timer('every', '[Timer]\nOnUnitActiveSec=1h 30\nRandomizedDelaySec=infinity\n');
    // No unit name has a space: systemd loads no such unit, so it never runs.
    timer('nightly backup', '[Timer]\nOnCalendar=daily\n');
    const result = await runCli(['timers', 'discover', '--root', root, '--dry-run'], { env: envFor(tempFolder()) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/mixed\.timer\s+daily\s+0s\s+60s .*to monitor \(systemd ignores OnCalendar=0 3 \* \* \* and OnCalendar=12:00 {2}UTC\)/);
    expect(result.stdout).toMatch(/spans\.timer\s+hourly\s+3630s\s+0\.500s .*to monitor/);
    expect(result.stdout).toMatch(/every\.timer\s+@every 1h30s\s+infinity\s+60s\s/);
    expect(result.stdout).toMatch(/nightly backup\.timer .* not monitorable: "nightly backup\.timer" is no unit name systemd loads/);
    expect(result.stdout).toMatch(/Would create 3 monitors/);
  });

  it("reads the drop-ins systemd adds by the name's dashes and for every timer", async () => {
    const root = tempFolder('cronbeat-timers-');
    const lib = 'usr/lib/systemd/system';
    const wants = join(root, 'etc/systemd/system/timers.target.wants');
    mkdirSync(wants, { recursive: true });
    for (const name of ['db-backup-nightly', 'db2-backup']) {
      put(root, `${lib}/${name}.timer`, '[Timer]\nOnCalendar=daily\n');
      put(root, `${lib}/${name}.service`, '[Service]\nType=oneshot\nExecStart=/bin/true\n');
      symlinkSync(`/${lib}/${name}.timer`, join(wants, `${name}.timer`));
    }
    // db-backup-nightly.timer also reads db-.timer.d/ and db-backup-.timer.d/ (systemd.unit(5)); every timer reads timer.d/.
    put(root, 'etc/systemd/system/db-.timer.d/when.conf', '[Timer]\nOnCalendar=\nOnCalendar=Sun 03:00\n');
    put(root, 'etc/systemd/system/db-backup-.timer.d/zone.conf', '[Timer]\nOnCalendar=\nOnCalendar=Sun 04:00 UTC\n');
    put(root, `${lib}/timer.d/accuracy.conf`, '[Timer]\nAccuracySec=5min\n');
    const result = await runCli(['timers', 'discover', '--root', root, '--dry-run'], { env: envFor(tempFolder()) });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/db-backup-nightly\.timer\s+Sun 04:00 UTC\s+0s\s+300s\s/);
    expect(result.stdout).toMatch(/db2-backup\.timer\s+daily\s+0s\s+300s\s/);
    if (hasAnalyze) {
      // systemd reads them too: a line of each that it refuses is named with its file.
      put(root, 'etc/systemd/system/db-backup-.timer.d/zz.conf', '[Timer]\nOnCalendar=refused-here\n');
      const checked = spawnSync('systemd-analyze', ['verify', join(root, lib, 'db-backup-nightly.timer')], {
        encoding: 'utf8',
        env: { ...process.env, XDG_RUNTIME_DIR: tempFolder('cronbeat-runtime-'), SYSTEMD_UNIT_PATH: `${join(root, 'etc/systemd/system')}:${join(root, lib)}:` },
      });
      expect(checked.stderr).toContain('db-backup-.timer.d/zz.conf:2: Failed to parse calendar specification, ignoring: refused-here');
    }
  });

  it("monitors a --root's timers in that root's zone (its /etc/localtime), as its systemd runs them", async () => {
    const root = tempFolder('cronbeat-timers-');
    const lib = 'usr/lib/systemd/system';
    put(root, `${lib}/report.timer`, '[Timer]\nOnCalendar=*-*-* 06:00\n');
    put(root, `${lib}/report.service`, '[Service]\nType=oneshot\nExecStart=/bin/true\n');
    mkdirSync(join(root, 'etc/systemd/system/timers.target.wants'), { recursive: true });
    symlinkSync(`/${lib}/report.timer`, join(root, 'etc/systemd/system/timers.target.wants/report.timer'));
    // A container's /etc/localtime points into its own /usr/share/zoneinfo; this machine's TZ is Europe/Paris.
    symlinkSync('/usr/share/zoneinfo/Asia/Tokyo', join(root, 'etc/localtime'));
    const count = (await monitors()).length;
    const result = await runCli(['timers', 'discover', '--root', root], { env: envFor(tempFolder()) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const made = (await (await testAgent().api('/api/monitors')).json()) as Array<{ name: string; timezone: string }>;
    expect(made.slice(count).map((m) => [m.name, m.timezone])).toEqual([['report.timer', 'Asia/Tokyo']]);
  });

  it('wires a service started by two timers once, for the first, and says why the other is left alone', async () => {
    const root = tempFolder('cronbeat-timers-');
    const lib = 'usr/lib/systemd/system';
    put(root, `${lib}/backup-daily.timer`, '[Timer]\nOnCalendar=*-*-* 02:00\nUnit=backup.service\n');
    put(root, `${lib}/backup-weekly.timer`, '[Timer]\nOnCalendar=Sun 05:00\nUnit=backup.service\n');
    put(root, `${lib}/backup.service`, '[Service]\nType=oneshot\nExecStart=/bin/true\n');
    const wants = join(root, 'etc/systemd/system/timers.target.wants');
    mkdirSync(wants, { recursive: true });
    for (const timer of ['backup-daily.timer', 'backup-weekly.timer']) symlinkSync(`/${lib}/${timer}`, join(wants, timer));
    const count = (await monitors()).length;
    const result = await runCli(['timers', 'discover', '--root', root], { env: envFor(tempFolder()) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/backup-weekly\.timer .* left alone: backup-daily\.timer starts backup\.service too/);
    // One monitor, the one the drop-in pulses: a second would never hear from its service and fail at each run.
    const made = (await monitors()).slice(count);
    expect(made.map((m) => m.name)).toEqual(['backup-daily.timer']);
    expect(readFileSync(join(root, dropIn('backup.service')), 'utf8')).toContain(made[0]!.token);
  });
});
