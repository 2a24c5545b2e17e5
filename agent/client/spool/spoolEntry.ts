import { closeSync, fstatSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import type { Pulse } from '../pulses/pulses';

/*
 * The spool's file format: one JSON line per pulse in spool.jsonl. Writing a line and reading
 * the file's lines are here; checking a line read back (zod, loaded only when needed) is in
 * spoolLine.ts. The store is spool.ts; sending what it holds, spoolFlush.ts.
 */

/** A pulse that could not be delivered, waiting in the spool (its event time is `pulse.at`). */
export interface SpoolEntry {
  id: string;
  /** The agent it was meant for. */
  baseUrl: string;
  pulse: Pulse;
}

/**
 * The line that stores an entry, in the names every version reads and writes (a machine may run
 * two versions of the CLI against one spool): `sentAt` is the event time, `token` the token or slug.
 */
export function lineOf({ id, baseUrl, pulse }: SpoolEntry): string {
  const { at, tokenOrSlug, ...rest } = pulse;
  return JSON.stringify({ id, sentAt: at, baseUrl, pulse: { token: tokenOrSlug, ...rest } });
}

/** A line longer than this is no entry the CLI wrote (a body is at most 100 KB): only its start is set aside. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** How many lines a file has, counting newlines without decoding. */
export function countLines(file: string): number {
  let count = 0;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return 0;
  }
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const view = chunk.subarray(0, read);
      for (let at = view.indexOf(10); at !== -1; at = view.indexOf(10, at + 1)) count++;
    }
  } finally {
    closeSync(fd);
  }
  return count;
}

/**
 * The lines of a file of any size, oldest first, read 1 MB at a time; `complete` is false for
 * a last line without its newline. A line past MAX_LINE_BYTES keeps only its start.
 */
export function* fileLines(file: string): Generator<{ text: string; complete: boolean }> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    let carry: Buffer[] = [];
    let carried = 0;
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const view = chunk.subarray(0, read);
      let start = 0;
      for (let newline = view.indexOf(10); newline !== -1; newline = view.indexOf(10, start)) {
        if (carried < MAX_LINE_BYTES) carry.push(view.subarray(start, newline));
        yield { text: Buffer.concat(carry).subarray(0, MAX_LINE_BYTES).toString('utf8'), complete: true };
        carry = [];
        carried = 0;
        start = newline + 1;
      }
      if (start < read && carried < MAX_LINE_BYTES) {
        carry.push(Buffer.from(view.subarray(start)));
        carried += read - start;
      }
    }
    if (carry.length > 0) yield { text: Buffer.concat(carry).subarray(0, MAX_LINE_BYTES).toString('utf8'), complete: false };
  } finally {
    closeSync(fd);
  }
}

export function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
