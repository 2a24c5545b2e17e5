/*
 * A database damaged on disk (a bad sector, a copy cut short, another tool writing into it).
 * SQLite notices only when it reads the damaged page, so the agent checks at start and answers
 * a clear error for any page it cannot read later.
 */

/** True when `error` is SQLite saying a page of the file is not what it should be. */
export function isDatabaseDamaged(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_') || code === 'SQLITE_NOTADB');
}

/** What to do about a damaged database, in the words every message uses. */
export const RESTORE_ADVICE = 'stop Cronbeat and bring back your latest backup with `cronbeat restore FILE`';
