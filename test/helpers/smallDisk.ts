import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A real, small, full file system for the disk-full tests: a size-limited tmpfs where this
 * machine lets us mount one (root on Linux), else null and the caller skips that variant.
 */

/** Mounts a tmpfs of `megabytes`; null when mounting is not permitted here. */
export function mountSmallDisk(megabytes: number): string | null {
  if (process.platform !== 'linux') return null;
  const dir = mkdtempSync(join(tmpdir(), 'cronbeat-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

export function unmountSmallDisk(dir: string): void {
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}

/** Writes a file in `dir` until the disk refuses more, to the last byte; returns its path (delete it to free the space). */
export function fillDisk(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  try {
    const chunk = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    }
    // The last chunk that did not fit may have left a few bytes: fill them one at a time.
    try {
      for (;;) writeSync(fd, chunk, 0, 1);
    } catch {
      // full
    }
  } finally {
    closeSync(fd);
  }
  return file;
}
