import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { discoverAgent } from './discoverAgent';
import { runCli, tempFolder } from '../helpers/cli';

// Real agent, real CLI processes: several seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const { agent: testAgent, shimDir } = discoverAgent();
chmodSync(shimDir, 0o755);

function machine(): string {
  const root = tempFolder('cronbeat-timers-');
  const lib = join(root, 'usr/lib/systemd/system');
  const wants = join(root, 'etc/systemd/system/timers.target.wants');
  mkdirSync(lib, { recursive: true });
  mkdirSync(wants, { recursive: true });
  for (const [name, timer] of [
    ['backup', '[Timer]\nOnCalendar=*-*-* 02:30\n'],
    ['poll', '[Timer]\nOnUnitActiveSec=15min\n'],
  ]) {
    writeFileSync(join(lib, `${name}.timer`), timer!);
    writeFileSync(join(lib, `${name}.service`), '[Service]\nType=oneshot\nExecStart=/bin/true\n');
    symlinkSync(`/usr/lib/systemd/system/${name}.timer`, join(wants, `${name}.timer`));
  }
  return root;
}

describe('cronbeat timers watch', () => {
  it('reports a changed schedule once and the monitor follows it; a removed timer once', async () => {
    const root = machine();
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_SHIM_DIR: shimDir };
    const created = await testAgent().api('/api/servers', { method: 'POST', json: { name: 'web 3', ip_address: '10.0.0.3', identifier: 'web-3' } });
    const server = (await created.json()) as { id: number };
    const alerts = async () => ((await (await testAgent().api(`/api/servers/${server.id}/alerts`)).json()) as Array<{ command: string; change: string; previous_command: string | null }>).map((a) => [a.change, a.command, a.previous_command]);
    expect((await runCli(['timers', 'discover', '--root', root], { env })).status).toBe(0);
    const watch = () => runCli(['timers', 'watch', '--root', root, '--server', 'web-3', '--once'], { env });

    const baseline = await watch();
    expect(baseline.stderr).toBe('');
    expect(baseline.status).toBe(0);
    expect(await alerts()).toEqual([]);
    // Started by a timer without --interval: until it has learned how often, a day, never a minute that makes it quiet at every run.
    const reported = (await (await testAgent().api(`/api/servers/${server.id}`)).json()) as { report_interval_seconds: number | null };
    expect(reported.report_interval_seconds).toBe(86_400);

    writeFileSync(join(root, 'usr/lib/systemd/system/backup.timer'), '[Timer]\nOnCalendar=*-*-* 04:00\nRandomizedDelaySec=10min\n');
    const changed = await watch();
    expect(changed.status).toBe(0);
    expect(changed.stdout).toMatch(/monitor #\d+ now follows backup\.timer: \*-\*-\* 02:30 → \*-\*-\* 04:00/);
    expect(await alerts()).toEqual([['altered', 'timer backup.timer: *-*-* 04:00', 'timer backup.timer: *-*-* 02:30']]);
    const monitor = ((await (await testAgent().api('/api/monitors')).json()) as Array<{ name: string; schedule: string; duration: number }>).find((m) => m.name === 'backup.timer')!;
    expect([monitor.schedule, monitor.duration]).toEqual(['*-*-* 04:00', 60 + 11]);

    expect((await watch()).status).toBe(0);
    expect(await alerts()).toHaveLength(1);

    rmSync(join(root, 'etc/systemd/system/timers.target.wants/poll.timer'));
    rmSync(join(root, 'usr/lib/systemd/system/poll.timer'));
    expect((await watch()).status).toBe(0);
    expect((await watch()).status).toBe(0);
    const all = await alerts();
    expect(all).toHaveLength(2);
    expect(all).toContainEqual(['removed', 'timer poll.timer: @every 15m', null]);
  });

  it('follows the timer as systemd loads it: a line it refuses changes nothing, a prefix drop-in moves it, a mask removes it', async () => {
    const root = machine();
    rmSync(join(root, 'etc/systemd/system/timers.target.wants/poll.timer'));
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_SHIM_DIR: shimDir };
    const created = await testAgent().api('/api/servers', { method: 'POST', json: { name: 'web 4', ip_address: '10.0.0.4', identifier: 'web-4' } });
    const server = (await created.json()) as { id: number };
    const alerts = async () => ((await (await testAgent().api(`/api/servers/${server.id}/alerts`)).json()) as Array<{ command: string; change: string }>).map((a) => [a.change, a.command]);
    expect((await runCli(['timers', 'discover', '--root', root], { env })).status).toBe(0);
    const watch = () => runCli(['timers', 'watch', '--root', root, '--server', 'web-4', '--once'], { env });
    expect((await watch()).status).toBe(0);

    // systemd skips the cron line and keeps elapsing at 02:30: nothing changed, nothing removed.
    writeFileSync(join(root, 'usr/lib/systemd/system/backup.timer'), '[Timer]\nOnCalendar=*-*-* 02:30\nOnCalendar=0 3 * * *\n');
    expect((await watch()).status).toBe(0);
    expect(await alerts()).toEqual([]);

    mkdirSync(join(root, 'etc/systemd/system/backup-.timer.d'));
    // Not this timer's: only prefixes up to a dash of its own name apply.
    writeFileSync(join(root, 'etc/systemd/system/backup-.timer.d/later.conf'), '[Timer]\nOnCalendar=\nOnCalendar=*-*-* 05:00\n');
    mkdirSync(join(root, 'etc/systemd/system/timer.d'));
    writeFileSync(join(root, 'etc/systemd/system/timer.d/later.conf'), '[Timer]\nOnCalendar=\nOnCalendar=*-*-* 04:00\n');
    expect((await watch()).status).toBe(0);
    // timer.d/ applies to every timer: backup moves to 04:00.
    expect(await alerts()).toEqual([['altered', 'timer backup.timer: *-*-* 04:00']]);

    rmSync(join(root, 'etc/systemd/system/timer.d'), { recursive: true });
    symlinkSync('/dev/null', join(root, 'etc/systemd/system/backup.timer'));
    expect((await watch()).status).toBe(0);
    expect((await alerts())[0]).toEqual(['removed', 'timer backup.timer: *-*-* 04:00']);
  });

  it('follows the timer a drop-in was written for, not another timer of the same service', async () => {
    const root = tempFolder('cronbeat-timers-');
    const lib = join(root, 'usr/lib/systemd/system');
    const wants = join(root, 'etc/systemd/system/timers.target.wants');
    mkdirSync(lib, { recursive: true });
    mkdirSync(wants, { recursive: true });
    // a-manual.timer comes first by name but no target wants it: it never runs.
    writeFileSync(join(lib, 'a-manual.timer'), '[Timer]\nOnCalendar=*-*-* 05:00\nUnit=sync.service\n');
    writeFileSync(join(lib, 'b-nightly.timer'), '[Timer]\nOnCalendar=*-*-* 01:00\nUnit=sync.service\n');
    writeFileSync(join(lib, 'sync.service'), '[Service]\nType=oneshot\nExecStart=/bin/true\n');
    symlinkSync('/usr/lib/systemd/system/b-nightly.timer', join(wants, 'b-nightly.timer'));
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_SHIM_DIR: shimDir };
    await testAgent().api('/api/servers', { method: 'POST', json: { name: 'web 4', ip_address: '10.0.0.4', identifier: 'web-4' } });
    expect((await runCli(['timers', 'discover', '--root', root], { env })).status).toBe(0);
    const listed = await runCli(['timers', 'list', '--root', root], { env });
    expect(listed.stdout).toMatch(/b-nightly\.timer .* monitored/);
    expect(listed.stdout).toMatch(/a-manual\.timer .* not enabled/);
    const watch = () => runCli(['timers', 'watch', '--root', root, '--server', 'web-4', '--once'], { env });
    expect((await watch()).status).toBe(0);
    const changed = await watch();
    expect(changed.stdout).not.toContain('now follows');
    const monitor = ((await (await testAgent().api('/api/monitors')).json()) as Array<{ name: string; schedule: string }>).find((m) => m.name === 'b-nightly.timer')!;
    expect(monitor.schedule).toBe('*-*-* 01:00');

    // Enabled too, the other timer is told apart from the one the drop-in pulses for.
    symlinkSync('/usr/lib/systemd/system/a-manual.timer', join(wants, 'a-manual.timer'));
    expect((await runCli(['timers', 'list', '--root', root], { env })).stdout).toMatch(/a-manual\.timer .* left alone: b-nightly\.timer starts sync\.service too/);

    // Undone and discovered again, now first by name, a-manual.timer gets a monitor of its own, not b-nightly's.
    expect((await runCli(['timers', 'discover', '--root', root, '--undo'], { env })).status).toBe(0);
    const again = await runCli(['timers', 'discover', '--root', root], { env });
    expect(again.stdout).toMatch(/a-manual\.timer: monitor #\d+, grace/);
    expect(again.stdout).not.toContain('the monitor an earlier discover made');
  });

  it('widens the grace when RandomizedDelaySec= or AccuracySec= grows, with no alert: the runs come later, the schedule is the same', async () => {
    const root = machine();
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_SHIM_DIR: shimDir };
    const created = await testAgent().api('/api/servers', { method: 'POST', json: { name: 'web 5', ip_address: '10.0.0.5', identifier: 'web-5' } });
    const server = (await created.json()) as { id: number };
    expect((await runCli(['timers', 'discover', '--root', root], { env })).status).toBe(0);
    const watch = () => runCli(['timers', 'watch', '--root', root, '--server', 'web-5', '--once'], { env });
    // The agent is shared by the tests of this file: this machine's monitor is the last one made.
    const backup = async () => ((await (await testAgent().api('/api/monitors')).json()) as Array<{ id: number; name: string; schedule: string; duration: number }>).filter((m) => m.name === 'backup.timer').sort((a, b) => b.id - a.id)[0]!;
    expect((await watch()).status).toBe(0);
    expect((await backup()).duration).toBe(60 + 1);

    // Spread over three hours, as backup timers often are: a run at 05:10 is on time, not missed.
    mkdirSync(join(root, 'etc/systemd/system/backup.timer.d'));
    writeFileSync(join(root, 'etc/systemd/system/backup.timer.d/spread.conf'), '[Timer]\nRandomizedDelaySec=3h\n');
    const spread = await watch();
    expect(spread.status).toBe(0);
    expect(spread.stdout).toMatch(/monitor #\d+ now waits 241 min after each run of backup\.timer \(its RandomizedDelaySec= and AccuracySec= changed\)/);
    expect([(await backup()).schedule, (await backup()).duration]).toEqual(['*-*-* 02:30', 60 + 1 + 180]);
    expect((await watch()).stdout).not.toContain('now waits');

    writeFileSync(join(root, 'etc/systemd/system/backup.timer.d/spread.conf'), '[Timer]\nAccuracySec=1us\n');
    expect((await watch()).status).toBe(0);
    expect((await backup()).duration).toBe(60 + 1);
    // The schedule did not change: the server's alerts stay for what does.
    expect(await (await testAgent().api(`/api/servers/${server.id}/alerts`)).json()).toEqual([]);
  });

  it('stops at start when no server has the identifier', async () => {
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: tempFolder() };
    const result = await runCli(['timers', 'watch', '--root', machine(), '--server', 'no-such', '--once'], { env });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('No server has the identifier "no-such"');
  });

  it('two watchers of one server over different --root folders keep a snapshot each', async () => {
    const data = tempFolder();
    const [one, two] = [machine(), machine()];
    rmSync(join(two, 'etc/systemd/system/timers.target.wants/poll.timer'));
    rmSync(join(two, 'usr/lib/systemd/system/poll.timer'));
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: data, CRONBEAT_SHIM_DIR: shimDir };
    await testAgent().api('/api/servers', { method: 'POST', json: { name: 'web 6', ip_address: '10.0.0.6', identifier: 'web-6' } });
    for (const root of [one, two]) expect((await runCli(['timers', 'discover', '--root', root], { env })).status).toBe(0);
    const watch = (root: string) => runCli(['timers', 'watch', '--root', root, '--server', 'web-6', '--once', '--interval', '300'], { env });
    expect((await watch(one)).stdout).toMatch(/watching 2 timers/);
    expect((await watch(two)).stdout).toMatch(/watching 1 timer;/);
    const again = await watch(one);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/found:/);
  });
});
