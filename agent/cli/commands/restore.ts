import { parseArgs } from '../parseOptions';
import { databaseFile, prepareDataDir } from '../../dataFolder/dataDir';
import { makeDataFolderPrivate } from '../../dataFolder/privateFolder';
import { UsageError, type Command } from '../command';
import { megabytes, progressLine } from '../progress';

const help = `Usage: cronbeat restore FILE [--data-dir DIR]

Replaces the agent's database with FILE, a backup made by \`cronbeat backup\`. FILE is checked
first (a whole SQLite file, a Cronbeat database, not from a newer version); the database it
replaces is kept beside it as cronbeat.db.before-restore-<time>, and the keys it revoked and the
pulse tokens it rotated since the backup stay revoked and rotated; the monitors and keys made
since the backup (not in it) are named. Refused while an agent runs
on the folder: stop it (or quit the desktop app) first. On a terminal, the copy's progress
shows on stderr. A restore killed while it renamed the files into place is finished by the next
\`cronbeat serve\` or \`cronbeat restore\`, which says so.

Options:
  --data-dir DIR   the agent's data folder (default: $CRONBEAT_DATA_DIR, else the per-user folder)

Example:
  cronbeat restore ~/backups/cronbeat-2026-11-21.db && cronbeat serve`;

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'Replace the database with a backup (agent stopped)',
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { 'data-dir': { type: 'string' } } });
    if (positionals.length !== 1) throw new UsageError('Say which backup to restore: `cronbeat restore FILE`.');
    const [file] = positionals;
    const dataDir = prepareDataDir(values['data-dir']);
    // Loaded here, not at the top, so other commands start without SQLite.
    const [{ BackupRefusedError, restoreDatabase }, { lockDataFolder, DataFolderInUseError }, { carriedOverWords }, { finishInterruptedRestore }] = await Promise.all([
      import('../../db/backup'),
      import('../../db/lock'),
      import('../../db/restoreCarryOver'),
      import('../../db/restoreFinish'),
    ]);
    try {
      makeDataFolderPrivate(dataDir);
      const lock = lockDataFolder(dataDir);
      try {
        // What a restore killed before left is finished (or removed) first, so this one replaces a whole database.
        const finished = finishInterruptedRestore(databaseFile(dataDir), Date.now());
        if (finished) console.log(finished);
        const progress = progressLine('Restoring', megabytes);
        const { keptAs, carried } = await restoreDatabase(file, dataDir, Date.now(), progress.update).finally(progress.end);
        console.log(`Restored ${file} into ${databaseFile(dataDir)}.${keptAs ? ` The database it replaced is kept as ${keptAs}.` : ''}`);
        for (const line of carriedOverWords(carried, keptAs)) console.log(line);
      } finally {
        lock.release();
      }
      return 0;
    } catch (error) {
      if (error instanceof BackupRefusedError || error instanceof DataFolderInUseError) throw new UsageError(error.message, 1);
      throw error;
    }
  },
};
