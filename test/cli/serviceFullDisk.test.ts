import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { volatilePlace } from '../../agent/cli/crontab/shim';
import { CLI, runCli, tempFolder } from '../helpers/cli';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';

/*
 * `cronbeat service install` run again (new flags) on a disk that is full: the unit it replaces
 * must stay whole, or the next boot finds an empty unit and the agent, and every alert, is gone.
 * On a real small tmpfs (root); systemctl and loginctl are stand-ins that note each call.
 */
vi.setConfig({ testTimeout: 60_000 });

const cliLasts = volatilePlace(CLI) === null;
const disk = mountSmallDisk(1);
afterAll(() => {
  if (disk) unmountSmallDisk(disk);
});

describe.skipIf(disk === null || !cliLasts)('cronbeat service install again on a full disk', () => {
  it('leaves the unit as it was and restarts nothing', async () => {
    const bin = tempFolder('cronbeat-systemctl-');
    const calls = join(bin, 'calls');
    writeFileSync(calls, '');
    for (const program of ['systemctl', 'loginctl']) {
      writeFileSync(join(bin, program), `#!/bin/sh\necho "${program} $*" >> '${calls}'\n`);
      chmodSync(join(bin, program), 0o755);
    }
    const env = { XDG_CONFIG_HOME: join(disk!, 'config'), PATH: `${bin}:/usr/bin:/bin`, USER: 'alice' };
    const dataDir = join(tempFolder(), 'data');
    expect((await runCli(['service', 'install', '--data-dir', dataDir, '--', '--port', '8788'], { env })).status).toBe(0);
    const unit = join(disk!, 'config', 'systemd', 'user', 'cronbeat.service');
    const before = readFileSync(unit, 'utf8');
    writeFileSync(calls, '');

    fillDisk(disk!);
    // A unit longer than the page its old text frees: names enough to pass 4 KB.
    const names = Array.from({ length: 120 }, (_, i) => ['--allow-host', `backup-box-${i}.example.com`]).flat();
    const again = await runCli(['service', 'install', '--data-dir', dataDir, '--', '--port', '8789', '--host', '0.0.0.0', ...names], { env });
    expect(again.status).toBe(1);
    expect(again.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^cronbeat: Writing .*cronbeat\.service: the disk is full \(ENOSPC\); the service was left as it was\.$/)]);
    expect(readFileSync(unit, 'utf8')).toBe(before);
    expect(readFileSync(calls, 'utf8')).toBe('');
  });
});
