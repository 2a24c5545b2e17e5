import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { volatilePlace } from '../../agent/cli/crontab/shim';
import { CLI, runCli, tempFolder } from '../helpers/cli';

/*
 * Who a service runs as, decided before anything is written: a --run-as user that does not exist
 * (docs/deploy.md's `--run-as cronbeat` on a machine where nobody made that user) would give a
 * unit that fails at every start, forever; and `sudo cronbeat service install` without --system
 * would give root a service of its own, running the agent as root, which --system refuses.
 */
vi.setConfig({ testTimeout: 60_000 });

const cliLasts = volatilePlace(CLI) === null;
const isRoot = process.getuid?.() === 0;

describe('cronbeat service install --system --run-as', () => {
  it.skipIf(!cliLasts)('refuses a user this machine does not have, and says how to make one', async () => {
    const root = tempFolder('cronbeat-service-');
    const result = await runCli(['service', 'install', '--system', '--run-as', 'cronbeat-nobody-here', '--unit-dir', root], { env: { PATH: '/usr/bin:/bin' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'cronbeat: There is no user cronbeat-nobody-here on this machine for the service to run as: make one first (sudo useradd --system --home-dir /var/lib/cronbeat --shell /usr/sbin/nologin cronbeat-nobody-here), or name another with --run-as.\n',
    );
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('sudo cronbeat service install, without --system', () => {
  it.skipIf(!cliLasts || !isRoot)('refuses to make root a service of its own, and says which command was meant', async () => {
    const config = tempFolder('cronbeat-service-');
    const result = await runCli(['service', 'install'], { env: { SUDO_USER: 'alice', XDG_CONFIG_HOME: config, PATH: '/usr/bin:/bin' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'cronbeat: Run through sudo, this would install a service of root, running the agent as root. For a service of your own user, run `cronbeat service install` as alice, without sudo; for a system service that runs as alice, `sudo cronbeat service install --system`.\n',
    );
    expect(existsSync(join(config, 'systemd'))).toBe(false);
  });
});

describe('cronbeat service install --system, without sudo', () => {
  it.skipIf(!cliLasts || !isRoot)('says in one line that writing the unit needs root, for install and uninstall', async () => {
    const units = tempFolder('cronbeat-units-');
    chmodSync(units, 0o755);
    const home = tempFolder();
    chmodSync(home, 0o777);
    const nobody = { uid: 65534, gid: 65534 };
    writeFileSync(join(units, 'cronbeat.service'), '[Unit]\n'); // installed before, by root
    for (const action of ['install', 'uninstall']) {
      const result = await runCli(['service', action, '--system', '--run-as', 'nobody', '--unit-dir', units], { user: nobody, env: { HOME: home, PATH: '/usr/bin:/bin' } });
      expect(result.stderr, action).toBe(
        `cronbeat: ${action === 'install' ? 'Writing' : 'Removing'} ${join(units, 'cronbeat.service')} needs more rights than this user has (permission denied): run it with sudo.\n`,
      );
      expect(result.status, action).toBe(1);
    }
  });
});
