import { closeSync, openSync, readSync } from 'node:fs';
import { uuidOf } from '../../domain/text/uuid';

/*
 * The random ids of the job side (a run's id, each pulse's Idempotency-Key, a spool entry's id),
 * read from /dev/urandom rather than made by node:crypto: loading node:crypto (35 of Node's
 * modules) took about 2 ms of every `cronbeat run`, for three ids. Where there is no /dev/urandom
 * to read (Windows, a chroot without /dev), node:crypto makes them.
 */

/** 16 bytes of /dev/urandom; null where it cannot be read. */
function urandom(): Uint8Array | null {
  const bytes = new Uint8Array(16);
  let fd: number;
  try {
    fd = openSync('/dev/urandom', 'r');
  } catch {
    return null;
  }
  try {
    return readSync(fd, bytes, 0, 16, null) === 16 ? bytes : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A random version 4 UUID, as crypto.randomUUID() gives. */
export function randomUuid(): string {
  const bytes = urandom();
  return bytes ? uuidOf(bytes) : process.getBuiltinModule('node:crypto').randomUUID();
}
