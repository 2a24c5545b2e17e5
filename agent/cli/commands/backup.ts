import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from '../parseOptions';
import { databaseFile, resolveDataDir } from '../../dataFolder/dataDir';
import { UsageError, type Command } from '../command';
import { megabytes, progressLine } from '../progress';

const help = `Usage: cronbeat backup --out FILE [--data-dir DIR]

Copies the agent's database to FILE with SQLite's online backup: safe while the agent runs,
and consistent (one snapshot, never half of a change). The copy is one self-contained file,
checked before it replaces FILE, and readable by you alone (0600). On a terminal, the copy's
progress shows on stderr.

Options:
  --out FILE       where to write the backup (replaced if it exists)
  --data-dir DIR   the agent's data folder (default: $CRONBEAT_DATA_DIR, else the per-user folder)

Restore it with \`cronbeat restore FILE\` while the agent is stopped.

Example:
  cronbeat backup --out ~/backups/cronbeat-$(date +%F).db`;

export const backupCommand: Command = {
  name: 'backup',
  summary: 'Copy the database to a file, safely while the agent runs',
  help,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { out: { type: 'string' }, 'data-dir': { type: 'string' } } });
    if (!values.out) throw new UsageError('Say where to write the backup: `cronbeat backup --out FILE`.');
    // A folder is not replaced by a file: say so before a copy is made beside it.
    if (statSync(values.out, { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(`--out ${values.out} is a folder: give the file to write, such as ${join(values.out, 'cronbeat.db')}.`, 1);
    }
    const dataDir = resolveDataDir({ flag: values['data-dir'], env: process.env, platform: process.platform, home: homedir() });
    // Loaded here, not at the top, so other commands start without SQLite.
    const { backupDatabase, BackupRefusedError } = await import('../../db/backup');
    try {
      const progress = progressLine('Backing up', megabytes);
      const { schema, bytes } = await backupDatabase(databaseFile(dataDir), values.out, progress.update).finally(progress.end);
      console.log(`Backed up ${databaseFile(dataDir)} to ${values.out} (schema ${schema}, ${bytes} bytes).`);
      return 0;
    } catch (error) {
      if (error instanceof BackupRefusedError) throw new UsageError(error.message, 1);
      throw error;
    }
  },
};
