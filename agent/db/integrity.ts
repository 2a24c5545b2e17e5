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
export const RESTORE_ADVICE = "bring back your latest backup with `cronbeat restore FILE`";

/** Memory-mapped reads make the check about twice as fast as going through SQLite's page cache. */
const CHECK_MMAP_BYTES = 8 * 1024 ** 3;

/**
 * Reads every page of the database and checks its structure (PRAGMA quick_check, stopping at the
 * first problem): about half a second per gigabyte. Returns that problem, or null when the file is whole.
 */
export function firstDamage(db: { pragma(source: string, options?: { simple: boolean }): unknown }): string | null {
  db.pragma(`mmap_size = ${CHECK_MMAP_BYTES}`);
  try {
    const result = String(db.pragma('quick_check(1)', { simple: true }));
    if (result === 'ok') return null;
    // SQLite heads a problem in a b-tree with "*** in database main ***" on a line of its own.
    const lines = result.split('\n').map((line) => line.trim()).filter((line) => line && !/^\*\*\* in database \w+ \*\*\*$/.test(line));
    return lines[0] ?? result.trim();
  } finally {
    db.pragma('mmap_size = 0');
  }
}
