/**
 * Whether `error` is SQLite saying it cannot write: the disk (or the folder's quota) is full
 * (SQLITE_FULL), the file system refused the write (SQLITE_IOERR_WRITE, _FSYNC, _SHMSIZE and the
 * other I/O error variants), or the database became read-only (SQLITE_READONLY and variants).
 * Such errors pass when space or permission returns; any other error is a defect.
 */
export function isStorageFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return code === 'SQLITE_FULL' || /^SQLITE_(IOERR|READONLY)(_|$)/.test(code);
}
