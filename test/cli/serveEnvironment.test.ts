import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../agent/cli/command';
import { parseServeFlags } from '../../agent/cli/serveFlags';
import { runCli, startServe, tempFolder } from '../helpers/cli';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';

/*
 * `cronbeat serve` given an address, a port or a data folder it cannot use: one line naming the
 * flag and the problem, never Node's own error code alone; and a hang-up (a closed terminal, the
 * launcher of `npm start` passing it on) stops it as cleanly as SIGTERM does.
 */
vi.setConfig({ testTimeout: 60_000 });

const isRoot = process.getuid?.() === 0;
/** Tests run as root here: an unprivileged user is what an admin's own account is. */
const nobody = { uid: 65534, gid: 65534 };

describe('cronbeat serve refuses what it cannot use in one line', () => {
  it('a --host that names no address', async () => {
    const result = await runCli(['serve', '--port', '0', '--no-popups', '--data-dir', tempFolder(), '--host', 'no-such-host.invalid']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('cronbeat: --host no-such-host.invalid is no address of this machine, nor a name that resolves to one. Choose another with --host.\n');
  });

  it('a port below 1024 for a user without the privilege to bind it', async () => {
    const home = tempFolder();
    chmodSync(home, 0o777);
    const result = await runCli(['serve', '--port', '80', '--no-popups', '--data-dir', join(home, 'data')], { user: isRoot ? nobody : undefined, env: { HOME: home } });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'cronbeat: Port 80 on 127.0.0.1 needs privileges this user does not have (ports below 1024 are the system\'s). Choose one from 1024 up with --port, or put a proxy in front (docs/deploy.md).\n',
    );
  });

  it('a port in use, where the data folder already has a database (checked while the agent would listen)', async () => {
    const dataDir = tempFolder();
    expect((await runCli(['token', 'create', '--data-dir', dataDir])).status).toBe(0);
    // Enough pages that the check is still running when the port is found taken.
    const db = new Database(join(dataDir, 'cronbeat.db'));
    db.exec('CREATE TABLE padding (x BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000) INSERT INTO padding SELECT randomblob(8000) FROM n;');
    db.close();
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const { port } = taken.address() as { port: number };
    // Kept alive a moment after it gives up, as a busy machine keeps it: the check then ends before the process does.
    const keepAlive = join(tempFolder(), 'keep-alive.cjs');
    writeFileSync(keepAlive, 'setTimeout(() => {}, 2000);\n');
    try {
      const result = await runCli(['serve', '--port', String(port), '--no-popups', '--data-dir', dataDir], { env: { NODE_OPTIONS: `--require ${keepAlive}` } });
      expect(result.stderr).toBe(`cronbeat: Port ${port} on 127.0.0.1 is already in use. Choose another with --port.\n`);
      expect(result.status).toBe(1);
    } finally {
      taken.close();
    }
  });

  it('an --allow-host that is no host name (a URL, a port, a wildcard, nothing), which no request could ever match', async () => {
    const cases: Array<[string, string]> = [
      ['http://backup-box:8787', '--allow-host takes a host name, not a URL: --allow-host backup-box.'],
      ['backup-box:8787', '--allow-host takes a host name without a port (it is answered at the agent\'s own): --allow-host backup-box.'],
      ['*.example.com', '--allow-host takes one host name; wildcards are not supported, so give each name its own --allow-host.'],
      ['', '--allow-host needs a host name, such as --allow-host backup-box.'],
      ['backup box', '--allow-host "backup box" is not a host name.'],
    ];
    // Each value against serve's own flag parser; one real serve for how the refusal reaches the user.
    for (const [value, message] of cases) expect(() => parseServeFlags([`--allow-host=${value}`]), value).toThrow(new UsageError(message));
    const [value, message] = cases[0];
    const refused = await runCli(['serve', '--port', '0', '--no-popups', '--data-dir', tempFolder(), `--allow-host=${value}`]);
    expect([refused.status, refused.stderr], value).toEqual([2, `cronbeat: ${message}\n`]);
    const root = tempFolder();
    const install = await runCli(['service', 'install', '--unit-dir', root, '--', '--allow-host', 'http://backup-box']);
    expect(install.status).toBe(2);
    expect(install.stderr).toContain('--allow-host takes a host name, not a URL: --allow-host backup-box.');
    // Every good form at once: one refused would stop this serve with its own message above.
    const fine = ['backup-box', 'backup-box.lan.', '192.168.1.20', '[fd00::1]', 'fd00::1', 'nas_01'];
    const serve = await startServe(['--no-popups', '--data-dir', tempFolder(), ...fine.flatMap((host) => ['--allow-host', host])]);
    expect(await serve.stop()).toBe(0);
  });

  it('a data folder that is a file', async () => {
    const file = join(tempFolder(), 'not-a-folder');
    writeFileSync(file, '');
    const result = await runCli(['serve', '--port', '0', '--no-popups', '--data-dir', file]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`cronbeat: The data folder ${file} cannot be made: it is a file, not a folder. Use another with --data-dir (or CRONBEAT_DATA_DIR).\n`);
  });

  it.skipIf(!isRoot)('a data folder inside one the user cannot write', async () => {
    const locked = join(tempFolder(), 'locked');
    mkdirSync(locked, { mode: 0o755 });
    const home = tempFolder();
    chmodSync(home, 0o777);
    const result = await runCli(['serve', '--port', '0', '--no-popups', '--data-dir', join(locked, 'data')], { user: nobody, env: { HOME: home } });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `cronbeat: The data folder ${join(locked, 'data')} cannot be made: permission denied. Use a folder this user can write with --data-dir (or CRONBEAT_DATA_DIR).\n`,
    );
  });
});

describe('cronbeat serve on a full disk', () => {
  it('says the data folder\'s disk is full, in one line', async () => {
    const disk = mountSmallDisk(1);
    if (disk === null) return; // mounting a tmpfs needs root: nothing to fill here
    try {
      fillDisk(disk);
      const dataDir = join(disk, 'data');
      const result = await runCli(['serve', '--port', '0', '--no-popups', '--data-dir', dataDir]);
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `cronbeat: The disk holding the data folder ${dataDir} is full: the agent cannot write its database. Free some space, or use a folder on another disk with --data-dir (or CRONBEAT_DATA_DIR).\n`,
      );
    } finally {
      unmountSmallDisk(disk);
    }
  });
});

describe('cronbeat serve on a hang-up', () => {
  it('stops cleanly, as on SIGTERM: exit 0, and its address note in the data folder is gone', async () => {
    const dataDir = tempFolder();
    const serve = await startServe(['--no-popups', '--data-dir', dataDir]);
    await expect.poll(() => existsSync(join(dataDir, 'cronbeat.address'))).toBe(true);
    expect(await serve.stop('SIGHUP')).toBe(0);
    expect(existsSync(join(dataDir, 'cronbeat.address'))).toBe(false);
    expect(existsSync(join(dataDir, 'cronbeat.pid'))).toBe(false);
  });
});
