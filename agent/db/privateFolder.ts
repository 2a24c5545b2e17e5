import { chmodSync, closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The data folder holds API token hashes, monitor tokens and job output: only its owner may read
 * it. SQLite creates its -wal and -shm files with the mode of the database file, so creating that
 * file 0600 before SQLite opens it keeps every file it writes private too. Windows has no modes;
 * the per-user folder's ACL does the job there.
 */

const isPosix = process.platform !== 'win32';

/** Creates the folder if missing, then makes it 0700 and every file directly in it 0600. */
export function makeDataFolderPrivate(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!isPosix) return;
  chmodSync(dataDir, 0o700);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    try {
      chmodSync(join(dataDir, entry.name), 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // removed meanwhile
    }
  }
}

/** Creates `file` empty and 0600 when it does not exist; an existing file is left as it is. */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
}
