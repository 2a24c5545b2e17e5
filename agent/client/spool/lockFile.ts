import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';

/** A lock untouched this long is taken to belong to a process that died without cleaning up. */
const STALE_AFTER_MS = 10 * 60_000;

/** A held lock: `refresh` proves the holder is alive during long work, `release` frees it. */
export interface HeldLock {
  refresh(): void;
  release(): void;
}

/**
 * Takes the lock file at `path` if nobody holds it: created with O_EXCL and holding our pid.
 * A lock whose process is gone (or untouched for 10 minutes) is removed first. Returns null
 * when another live process holds it.
 */
export function tryLock(path: string): HeldLock | null {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, String(process.pid));
      } catch (error) {
        // A full disk takes the file, not its pid: left empty, it reads as held by a process still
        // writing it, and every ping and run would queue behind no one until it is stale.
        closeSync(fd);
        removeQuietly(path);
        throw error;
      }
      closeSync(fd);
      return {
        refresh: () => touch(path),
        release: () => removeQuietly(path),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(path);
      if (holder === 'alive') return null;
      // 'gone': released meanwhile, just try again. Only a dead holder's lock is removed; never
      // one that merely vanished, which another process may have re-created by now.
      if (holder === 'dead') removeQuietly(path);
    }
  }
  return null;
}

/** tryLock, retried every 20 ms until `timeoutMs` has passed; null if still held by then. */
export async function waitForLock(path: string, timeoutMs: number): Promise<HeldLock | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lock = tryLock(path);
    if (lock || Date.now() >= deadline) return lock;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** waitForLock for synchronous callers, for locks that are only ever held for microseconds. */
export function waitForLockSync(path: string, timeoutMs: number): HeldLock | null {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const lock = tryLock(path);
    if (lock || Date.now() >= deadline) return lock;
    Atomics.wait(pause, 0, 0, 5);
  }
}

/** Whether the lock at `path` is held by a live process, by one that died, or no longer exists. */
function holderOf(path: string): 'alive' | 'dead' | 'gone' {
  try {
    if (Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS) return 'dead';
    const pid = Number(readFileSync(path, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return 'alive'; // its pid is being written right now
    process.kill(pid, 0);
    return 'alive';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'gone' : code === 'ESRCH' ? 'dead' : 'alive';
  }
}

function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // a refresh is best effort
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
