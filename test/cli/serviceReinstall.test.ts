import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { servicePlace } from '../../agent/cli/service/plan';
import { closedToOthers, volatilePlace } from '../../agent/cli/crontab/shim';
import { CLI, runCli, tempFolder } from '../helpers/cli';

/*
 * `cronbeat service install` run again, to change the flags of a service that runs: the unit is
 * rewritten and the running agent must take it up (a plain `enable --now` leaves the old process
 * running with the old flags, and says nothing). And a system service's data folder outside
 * /var/lib, which systemd needs to exist before it starts the unit (ReadWritePaths=).
 * systemd does not run here: systemctl and loginctl are stand-ins on PATH that note each call.
 */
vi.setConfig({ testTimeout: 60_000 });

const cliLasts = volatilePlace(CLI) === null;
const othersReachCli = cliLasts && closedToOthers(CLI) === null && closedToOthers(realpathSync(process.execPath)) === null;
const isRoot = process.getuid?.() === 0;

/** A folder holding systemctl and loginctl that append their arguments to `calls` and succeed (loginctl fails when told). */
function notingServiceManager(lingerRefused = false): { bin: string; calls: () => string[] } {
  const bin = tempFolder('cronbeat-systemctl-');
  const log = join(bin, 'calls');
  writeFileSync(log, '');
  for (const program of ['systemctl', 'loginctl']) {
    const refuse = program === 'loginctl' && lingerRefused ? 'echo "Could not enable linger: Interactive authentication required." >&2; exit 1\n' : '';
    writeFileSync(join(bin, program), `#!/bin/sh\necho "${program} $*" >> '${log}'\n${refuse}`);
    chmodSync(join(bin, program), 0o755);
  }
  return { bin, calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

describe('cronbeat service install, run twice', () => {
  it.skipIf(!cliLasts)('restarts the service, so a running agent takes up the new flags', async () => {
    const root = tempFolder('cronbeat-service-');
    const manager = notingServiceManager();
    const env = { XDG_CONFIG_HOME: join(root, 'config'), PATH: `${manager.bin}:/usr/bin:/bin`, USER: 'alice' };
    const first = await runCli(['service', 'install', '--data-dir', join(root, 'data'), '--', '--port', '8788'], { env });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const second = await runCli(['service', 'install', '--data-dir', join(root, 'data'), '--', '--port', '8789', '--host', '0.0.0.0'], { env });
    expect(second.status).toBe(0);
    expect(readFileSync(join(root, 'config', 'systemd', 'user', 'cronbeat.service'), 'utf8')).toMatch(/serve --data-dir \S+ --port 8789 --host 0\.0\.0\.0$/m);
    const once = ['systemctl --user daemon-reload', 'systemctl --user enable cronbeat.service', 'systemctl --user restart cronbeat.service', 'loginctl enable-linger alice'];
    expect(manager.calls()).toEqual([...once, ...once]);
  });

  it.skipIf(!cliLasts)('says the agent runs but stops at logout when only lingering is refused (an SSH session cannot ask for the password)', async () => {
    const root = tempFolder('cronbeat-service-');
    const manager = notingServiceManager(true);
    const env = { XDG_CONFIG_HOME: join(root, 'config'), PATH: `${manager.bin}:/usr/bin:/bin`, USER: 'alice' };
    const result = await runCli(['service', 'install', '--data-dir', join(root, 'data')], { env });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'cronbeat: the service runs, but it stops when alice logs out: `loginctl enable-linger alice` failed: Could not enable linger: Interactive authentication required. Run:\n  sudo loginctl enable-linger alice\n',
    );
  });

  it('on macOS takes the loaded agent out before loading the new one (launchd refuses to load a label twice)', () => {
    const spec = { scope: 'user' as const, command: ['/usr/local/bin/node', '/opt/cronbeat/dist/cronbeat.cjs', 'serve'], dataDir: '/Users/a/data' };
    const place = servicePlace({ platform: 'darwin', scope: 'user', spec, env: {}, home: '/Users/a', uid: 501 });
    expect(place.replace).toEqual([['launchctl', 'bootout', 'gui/501/dev.cronbeat.agent']]);
    expect(place.enable).toEqual([['launchctl', 'bootstrap', 'gui/501', '/Users/a/Library/LaunchAgents/dev.cronbeat.agent.plist']]);
  });
});

describe('cronbeat service install --system with a data folder outside /var/lib', () => {
  it.skipIf(!othersReachCli || !isRoot)('makes the folder, private to the service\'s user, since systemd will not start a unit whose ReadWritePaths= is missing', async () => {
    const root = tempFolder('cronbeat-service-');
    const dataDir = join(root, 'srv', 'cronbeat data');
    const manager = notingServiceManager();
    const result = await runCli(['service', 'install', '--system', '--run-as', 'nobody', '--data-dir', dataDir, '--unit-dir', join(root, 'units')], {
      env: { PATH: `${manager.bin}:/usr/bin:/bin` },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const made = statSync(dataDir);
    expect(made.isDirectory()).toBe(true);
    expect(made.uid).toBe(Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout));
    expect(made.mode & 0o777).toBe(0o700);
    expect(result.stdout).not.toMatch(/chown/);
  });

  it.skipIf(!othersReachCli || !isRoot)('says how to hand over a folder that exists and belongs to someone else', async () => {
    const root = tempFolder('cronbeat-service-');
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    const manager = notingServiceManager();
    const result = await runCli(['service', 'install', '--system', '--run-as', 'nobody', '--data-dir', dataDir, '--unit-dir', join(root, 'units')], {
      env: { PATH: `${manager.bin}:/usr/bin:/bin` },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`The data folder ${dataDir} must belong to the service's user: sudo chown -R nobody: ${dataDir}`);
  });
});
