import { spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cleanEnv, finished, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/testAgent';

/*
 * A system service's folder is restored as the user it runs as (`sudo -u cronbeat cronbeat
 * restore …`), and the backup root made is often not readable by that user. What restore says
 * must be that, not that the file does not exist. Root only: it hands a folder to `nobody`.
 */

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function asNobody(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv({ HOME: '/tmp' }), cwd: '/', stdio: ['pipe', 'pipe', 'pipe'], uid: NOBODY, gid: NOBODY });
  return finished(child);
}

describe.skipIf(!isRoot)('restore as the service user, of a backup that user cannot read', () => {
  it('says in one line that this user cannot read it, and leaves the database as it was', async () => {
    const parent = tempDir();
    chmodSync(parent, 0o755);
    const dataDir = join(parent, 'service');
    mkdirSync(dataDir, { mode: 0o700 });
    chownSync(dataDir, NOBODY, NOBODY);
    expect((await asNobody(['token', 'create', '--data-dir', dataDir])).status).toBe(0);
    const backupDir = tempDir(); // root's alone, as /root is
    const backup = join(backupDir, 'cronbeat.db');
    expect((await runCli(['backup', '--out', backup, '--data-dir', dataDir])).status).toBe(0);
    const readable = join(parent, 'backup-0600.db'); // in a folder nobody can enter, but root's file
    copyFileSync(backup, readable);
    chmodSync(readable, 0o600);

    for (const file of [backup, readable]) {
      const result = await asNobody(['restore', file, '--data-dir', dataDir]);
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `cronbeat: ${file} cannot be read by this user (nobody): permission denied. Let it read the file (sudo chown nobody ${file}), or copy it where it can.`,
      ]);
    }
    const listed = await asNobody(['token', 'list', '--json', '--data-dir', dataDir]);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
  });

  it('backup of a data folder this user cannot read says so, rather than that there is no database', async () => {
    const rootsFolder = tempDir(); // 0700, root's
    await runCli(['token', 'create', '--data-dir', rootsFolder]);
    const out = join('/tmp', `cronbeat-nobody-${process.pid}.db`);
    const result = await asNobody(['backup', '--out', out, '--data-dir', rootsFolder]);
    expect(result.status).toBe(1);
    const database = join(rootsFolder, 'cronbeat.db');
    expect(result.stderr.trim().split('\n')).toEqual([
      `cronbeat: ${database} cannot be read by this user (nobody): permission denied. Let it read the file (sudo chown nobody ${database}), or copy it where it can.`,
    ]);
  });
});
