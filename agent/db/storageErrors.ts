/*
 * Errors that mean "the disk cannot take this write", whoever raised them: SQLite (better-sqlite3
 * puts its extended result code in `code`) or Node's file system calls (errno names). They are
 * the machine's trouble, not a bug: callers answer them plainly instead of crashing or spinning.
 */

/** SQLite's "database or disk is full", and the I/O errors a full disk gives while writing. */
const SQLITE_WRITE_FAILURES = new Set([
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_IOERR_WRITE',
  'SQLITE_IOERR_FSYNC',
  'SQLITE_IOERR_DIR_FSYNC',
  'SQLITE_IOERR_TRUNCATE',
  'SQLITE_IOERR_SHMSIZE',
  'SQLITE_IOERR_SHMMAP',
]);

/** Node's names for "no space left" and "quota exceeded". */
const ERRNO_FULL = new Set(['ENOSPC', 'EDQUOT']);

/**
 * True when `error` says nothing more can be written: the disk (or the user's quota) is full, or
 * the database file became read-only under the running agent (SQLITE_READONLY and its variants).
 * Such errors pass when space or permission returns; any other error is a defect.
 */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return SQLITE_WRITE_FAILURES.has(code) || ERRNO_FULL.has(code) || /^SQLITE_READONLY(_|$)/.test(code);
}
