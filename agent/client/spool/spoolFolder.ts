import { prepareDataDir } from '../../dataFolder/dataDir';
import { privateFolderOfThisUser, privateTempFolder } from '../../dataFolder/privateFolder';
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
    return { dir: privateFolderOfThisUser(prepareDataDir(flag)) };
  } catch (error) {
    dataDirProblem = `the data folder cannot be used (${describe(error)})`;
  }
  try {
    return { dir: privateTempFolder(), fallbackReason: dataDirProblem };
  } catch (error) {
    return { dir: null, reason: `${dataDirProblem}, nor a temporary folder (${describe(error)})` };
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const path = (error as NodeJS.ErrnoException | null)?.path;
  if (code && path) return `${code} on ${path}`;
  return describeError(error);
}
