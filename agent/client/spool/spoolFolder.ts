import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareDataDir } from '../../dataFolder/dataDir';
import { privateFolderOfThisUser, privateTempFolder, tempFolderPath } from '../../dataFolder/privateFolder';
import { describeError } from '../../domain/text/errorText';

/** Where pulses that cannot be delivered are kept, or why they cannot be. */
export type SpoolFolder =
  | { dir: string; /** Why the data folder is not used (the folder is a fallback). */ fallbackReason?: string }
  | { dir: null; reason: string };

/**
 * The spool's folder: the data folder when this user can use it, else a private per-user
 * folder in the temporary directory (a job whose user has no home, or a shared folder it does
 * not own). Never throws: sending a pulse must never depend on it.
 */
export function spoolFolder(flag?: string): SpoolFolder {
  let dataDirProblem: string;
  try {
    // A folder another user owns or can open (a shared 1777 one) would leak job output.
    return { dir: withSpoolFiles(privateFolderOfThisUser(prepareDataDir(flag))) };
  } catch (error) {
    dataDirProblem = `the data folder cannot be used (${describe(error)})`;
  }
  try {
    return { dir: withSpoolFiles(privateTempFolder()), fallbackReason: dataDirProblem };
  } catch (error) {
    return { dir: null, reason: `${dataDirProblem}, nor a temporary folder (${describe(error)})` };
  }
}

/**
 * The temporary folder's spool when it holds pulses and `dir` is another folder (the data folder,
 * usable again): pulses kept there while the data folder could not be used, which nothing else
 * would send. Only from a real folder and file of this user's that nobody else can open: in a
 * shared /tmp, another user's files are never read, sent or removed. Null otherwise; never throws.
 */
export function strandedSpoolFolder(dir: string): string | null {
  try {
    const temp = tempFolderPath();
    if (resolve(temp) === resolve(dir)) return null;
    const spool = lstatSync(join(temp, 'spool.jsonl'), { throwIfNoEntry: false });
    if (!spool?.isFile() || (process.getuid && spool.uid !== process.getuid())) return null;
    return withSpoolFiles(privateFolderOfThisUser(temp));
  } catch {
    return null;
  }
}

/**
 * The files the job side reads and writes in its folder (the spool, its sent list and set-aside
 * lines, the lines' monitors), its locks (whose holder is read from them) and its mark of a full spool.
 */
const SPOOL_FILES = ['spool.jsonl', 'spool.sent', 'spool.rejected.jsonl', 'lines.json', 'spool.lock', 'spool.replay.lock', 'spool.full'];

/**
 * `dir`, once the spool's files in it are files or absent; throws otherwise. Reading a FIFO no
 * one writes blocks the whole process, signals included (the job's pulses, and the job's own
 * output passing through, would wait for good), and a link to /dev/zero never ends.
 */
function withSpoolFiles(dir: string): string {
  for (const name of SPOOL_FILES) {
    const file = join(dir, name);
    let stats;
    try {
      stats = statSync(file);
    } catch {
      continue; // absent (or a dangling link, which opening makes a file of): fine
    }
    if (!stats.isFile()) throw new Error(`${file} is not a file (${stats.isFIFO() ? 'a FIFO' : stats.isDirectory() ? 'a folder' : 'a device or socket'})`);
    // One this user cannot read and write (root's, left by a `sudo cronbeat …` that kept HOME):
    // every pulse the agent did not take would be neither sent nor kept.
    accessSync(file, constants.R_OK | constants.W_OK);
  }
  return dir;
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const path = (error as NodeJS.ErrnoException | null)?.path;
  if (code && path) return `${code} on ${path}`;
  return describeError(error);
}
