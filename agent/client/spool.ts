import { randomUUID } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tryLock, waitForLock, waitForLockSync } from './lockFile';
import type { Pulse } from './pulses';

/** A pulse that could not be delivered, waiting in the spool with the time it was first sent. */
export interface SpoolEntry {
  id: string;
  /** When the pulse was first sent, in ms since the epoch. */
  sentAt: number;
  /** The agent it was meant for. */
  baseUrl: string;
  pulse: Pulse;
}

/** What a replay did to one entry: sent, refused for good by the agent, or not deliverable now. */
export type ReplayVerdict = 'delivered' | 'rejected' | 'unreachable';

export interface ReplayResult {
  /** Another process was replaying; nothing was done. */
  busy: boolean;
  delivered: SpoolEntry[];
  rejected: SpoolEntry[];
  /** Entries still waiting afterwards, oldest first. */
  waiting: SpoolEntry[];
}

/**
 * The spool: undelivered pulses in an append-only file of JSON lines in the data folder.
 *
 * - Appends are single O_APPEND writes under a lock held for microseconds, so concurrent jobs
 *   never interleave or lose lines, even while a replay compacts the file.
 * - One replay at a time (a second lock file, held for the whole replay) sends entries in
 *   order and records each id in `spool.sent` as soon as it is delivered, so a replay that
 *   stops half-way sends nothing twice. When everything is delivered the file is compacted.
 */
export class Spool {
  readonly file: string;
  private readonly sentFile: string;
  private readonly writeLock: string;
  private readonly replayLock: string;

  constructor(readonly dataDir: string) {
    this.file = join(dataDir, 'spool.jsonl');
    this.sentFile = join(dataDir, 'spool.sent');
    this.writeLock = join(dataDir, 'spool.lock');
    this.replayLock = join(dataDir, 'spool.replay.lock');
  }

  /** Adds a pulse at the end of the spool. */
  append(baseUrl: string, pulse: Pulse, sentAt: number): SpoolEntry {
    const entry: SpoolEntry = { id: randomUUID(), sentAt, baseUrl, pulse };
    const line = `${JSON.stringify(entry)}\n`;
    // Waiting longer than this would hold up a job; a plain O_APPEND write is still atomic.
    const lock = waitForLockSync(this.writeLock, 2_000);
    try {
      const fd = openSync(this.file, 'a+', 0o600);
      try {
        // A writer killed mid-line must not swallow this entry into its half line.
        const prefix = endsWithNewline(fd) ? '' : '\n';
        writeSync(fd, prefix + line);
      } finally {
        closeSync(fd);
      }
    } finally {
      lock?.release();
    }
    return entry;
  }

  /** The entries still waiting, oldest first. Unreadable lines (a writer killed mid-line) are skipped. */
  pending(): SpoolEntry[] {
    const sent = this.sentIds();
    return readEntries(this.file).filter((entry) => !sent.has(entry.id));
  }

  /**
   * Offers every waiting entry, oldest first, to `send`, including entries appended while the
   * replay runs. An entry `send` cannot deliver now stays; `send` keeps the order by answering
   * `unreachable` for later entries of the same agent. With `waitMs`, waits that long for a
   * replay running elsewhere; otherwise gives up at once and reports `busy` (that replay then
   * takes along what is appended meanwhile: it checks for new entries after letting go).
   */
  async replay(send: (entry: SpoolEntry) => Promise<ReplayVerdict>, waitMs = 0): Promise<ReplayResult> {
    const result: ReplayResult = { busy: false, delivered: [], rejected: [], waiting: [] };
    if (!existsSync(this.file)) return result;
    let lock = waitMs > 0 ? await waitForLock(this.replayLock, waitMs) : tryLock(this.replayLock);
    if (!lock) return { ...result, busy: true, waiting: this.pending() };
    const offered = new Set<string>();
    const unoffered = () => this.pending().filter((entry) => !offered.has(entry.id));
    while (lock) {
      try {
        for (let batch = unoffered(); batch.length > 0; batch = unoffered()) {
          for (const entry of batch) {
            offered.add(entry.id);
            const verdict = await send(entry);
            if (verdict === 'unreachable') {
              result.waiting.push(entry);
              continue;
            }
            // Recorded before the next send, so a replay cut short here never sends this one again.
            appendFileSync(this.sentFile, `${entry.id}\n`, { mode: 0o600 });
            (verdict === 'delivered' ? result.delivered : result.rejected).push(entry);
            lock.refresh();
          }
        }
        if (result.waiting.length === 0) this.compact();
      } finally {
        lock.release();
      }
      // A writer that found us busy appended after our last look: take it along, unless
      // another replay has started and will.
      lock = unoffered().length > 0 ? tryLock(this.replayLock) : null;
    }
    return result;
  }

  /** Drops delivered entries from the file; only called by the replay lock's holder. */
  private compact(): void {
    const lock = waitForLockSync(this.writeLock, 2_000);
    if (!lock) return; // compacting later is fine; the sent list keeps replays exact meanwhile
    try {
      const left = this.pending();
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, left.map((entry) => `${JSON.stringify(entry)}\n`).join(''), { mode: 0o600 });
      renameSync(temporary, this.file);
      unlinkQuietly(this.sentFile);
      if (left.length === 0) unlinkQuietly(this.file);
    } finally {
      lock.release();
    }
  }

  private sentIds(): Set<string> {
    if (!existsSync(this.sentFile)) return new Set();
    return new Set(readFileSync(this.sentFile, 'utf8').split('\n').filter(Boolean));
  }
}

function readEntries(file: string): SpoolEntry[] {
  if (!existsSync(file)) return [];
  const entries: SpoolEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as SpoolEntry;
      if (typeof entry.id === 'string' && typeof entry.sentAt === 'number' && entry.pulse?.token) entries.push(entry);
    } catch {
      // a half-written line from a writer that was killed: nothing to deliver
    }
  }
  return entries;
}

function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
