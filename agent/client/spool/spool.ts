import { randomUuid } from '../pulses/randomIds';
import { appendFileSync, closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { waitForLockSync } from './lockFile';
import type { Pulse } from '../pulses/pulses';
import { countLines, endsWithNewline, fileLines, fileSize, lineOf, unlinkQuietly, type SpoolEntry } from './spoolEntry';

export type { SpoolEntry };

/** The spool keeps at most this many pulses; beyond, the oldest are dropped. */
export const SPOOL_MAX_PULSES = 10_000;
/** …and at most this many bytes; beyond, the oldest outputs are dropped first, then the oldest pulses. */
export const SPOOL_MAX_BYTES = 8 * 1024 * 1024;
/** A full spool is trimmed this far below its bounds, so it is not rewritten at every pulse. */
const TRIM_TO = 0.75;
/** The body a pulse keeps when the spool had to drop its output. */
export const DROPPED_OUTPUT = "[cronbeat: this run's output was dropped: the spool was full]";

type LineParser = (line: string) => SpoolEntry | null;
let parser: LineParser | undefined;
/** The zod schema of a line, loaded the first time a spool has lines to read. */
async function loadParser(): Promise<LineParser> {
  parser ??= (await import('./spoolLine')).parseSpoolLine;
  return parser;
}

/**
 * The spool: undelivered pulses in an append-only file of JSON lines in the spool folder.
 *
 * - Appends are single O_APPEND writes under a lock held for microseconds, so concurrent jobs
 *   never interleave or lose lines, even while a replay compacts the file.
 * - Sending what it holds is spoolFlush.ts: one flush at a time, each delivered id recorded
 *   in `spool.sent` at once, so a flush that stops half-way sends nothing twice.
 * - A line that is not a valid entry never stops delivery: it is skipped, and moved to
 *   `spool.rejected.jsonl` at the next rewrite, with one warning.
 * - Bounded: past SPOOL_MAX_PULSES or SPOOL_MAX_BYTES the oldest outputs are dropped first,
 *   then the oldest pulses, with one warning until the spool has been emptied.
 */
export class Spool {
  readonly file: string;
  readonly rejectedFile: string;
  /** The ids delivered by a flush not yet compacted away. */
  readonly sentFile: string;
  private readonly writeLock: string;
  /** Held for a whole flush (spoolFlush.ts): one at a time. */
  readonly replayLock: string;
  private readonly fullMark: string;
  /** One line each about what needs the user's attention (lines set aside, a full spool), as it happens. */
  readonly warnings: string[] = [];
  /** Unreadable lines the last read skipped. */
  unreadable = 0;

  constructor(readonly dataDir: string) {
    this.file = join(dataDir, 'spool.jsonl');
    this.rejectedFile = join(dataDir, 'spool.rejected.jsonl');
    this.sentFile = join(dataDir, 'spool.sent');
    this.writeLock = join(dataDir, 'spool.lock');
    this.replayLock = join(dataDir, 'spool.replay.lock');
    this.fullMark = join(dataDir, 'spool.full');
  }

  /** Adds a pulse at the end of the spool, and trims the spool when that made it too big. */
  async append(baseUrl: string, pulse: Pulse): Promise<SpoolEntry> {
    const entry: SpoolEntry = { id: randomUuid(), baseUrl, pulse };
    const line = `${lineOf(entry)}\n`;
    let size: number;
    // Waiting longer than this would hold up a job; a plain O_APPEND write is still atomic.
    const lock = waitForLockSync(this.writeLock, 2_000);
    try {
      const fd = openSync(this.file, 'a+', 0o600);
      try {
        // A writer killed mid-line must not swallow this entry into its half line.
        const prefix = endsWithNewline(fd) ? '' : '\n';
        const before = fstatSync(fd).size;
        try {
          writeWhole(fd, prefix + line);
        } catch (error) {
          // A line cut short (a full disk) is no saved pulse: taken back, so the caller says it was not saved.
          // Without the lock another writer may have appended meanwhile, and its line is left alone.
          if (lock) ftruncateSync(fd, before);
          throw error;
        }
        size = fstatSync(fd).size;
      } finally {
        closeSync(fd);
      }
    } finally {
      lock?.release();
    }
    if (size > SPOOL_MAX_BYTES) {
      try {
        await this.rewrite(false);
      } catch {
        // The pulse is kept; trimming is tried again by the next append or replay.
      }
    }
    return entry;
  }

  /** Adds entries taken from another spool at the end, keeping their ids, and trims the spool when that made it too big. */
  async appendEntries(entries: SpoolEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const lock = waitForLockSync(this.writeLock, 2_000);
    let size: number;
    try {
      const fd = openSync(this.file, 'a+', 0o600);
      try {
        writeWhole(fd, (endsWithNewline(fd) ? '' : '\n') + entries.map((entry) => `${lineOf(entry)}\n`).join(''));
        size = fstatSync(fd).size;
      } finally {
        closeSync(fd);
      }
    } finally {
      lock?.release();
    }
    if (size > SPOOL_MAX_BYTES) await this.rewrite(false).catch(() => {});
  }

  /** The entries still waiting, oldest first. Lines that are no valid entry are skipped (and counted in `unreadable`). */
  async pending(): Promise<SpoolEntry[]> {
    if (!existsSync(this.file)) return [];
    const parse = await loadParser();
    const sent = this.sentIds();
    const entries: SpoolEntry[] = [];
    this.unreadable = 0;
    for (const line of fileLines(this.file)) {
      if (!line.text.trim()) continue;
      const entry = parse(line.text);
      if (entry) {
        if (!sent.has(entry.id)) entries.push(entry);
      } else if (line.complete) {
        this.unreadable++; // an incomplete last line may be a write in progress
      }
    }
    return entries;
  }

  /**
   * Rewrites the file under the write lock: lines that are no valid entry move to the
   * rejected file, delivered entries go (`dropSent`, only for the replay lock's holder), and a
   * spool past its bounds loses the oldest outputs, then the oldest pulses. Streams, so a
   * spool of any size costs a few MB of memory.
   */
  async rewrite(dropSent: boolean): Promise<void> {
    const parse = await loadParser();
    const lock = waitForLockSync(this.writeLock, 2_000);
    if (!lock) return; // rewriting later is fine; the sent list keeps replays exact meanwhile
    try {
      const sent = dropSent ? this.sentIds() : new Set<string>();
      const first = this.copyLines(this.file, (entry) => !sent.has(entry.id), parse, false);
      // Every output dropped and still too big: the oldest pulses go too.
      let second: ReturnType<Spool['copyLines']> | undefined;
      try {
        second = first.bytes > SPOOL_MAX_BYTES ? this.copyLines(first.file, () => true, parse, true) : undefined;
      } catch (error) {
        unlinkQuietly(first.file);
        throw error;
      }
      renameSync((second ?? first).file, this.file);
      if (second) unlinkQuietly(first.file);
      if (dropSent) unlinkQuietly(this.sentFile);
      const droppedPulses = first.droppedPulses + (second?.droppedPulses ?? 0);
      if (first.rejected > 0) this.warnings.push(`set aside ${plural(first.rejected, 'unreadable spool line')} in ${this.rejectedFile}`);
      if (first.droppedOutputs + droppedPulses > 0 && !existsSync(this.fullMark)) {
        appendFileSync(this.fullMark, '', { mode: 0o600 });
        const pulses = droppedPulses > 0 ? ` and ${plural(droppedPulses, 'oldest pulse')}` : '';
        this.warnings.push(
          `the spool is full (at most ${SPOOL_MAX_PULSES} pulses and ${SPOOL_MAX_BYTES / 1024 / 1024} MB): dropped the output of ${plural(first.droppedOutputs, 'oldest pulse')}${pulses}; start the agent or run \`cronbeat spool flush\``,
        );
      }
      if ((second ?? first).kept === 0) {
        unlinkQuietly(this.file);
        unlinkQuietly(this.fullMark);
      }
    } finally {
      lock.release();
    }
  }

  /**
   * Copies the entries of `from` that `keep` accepts to a temporary file, oldest first, within
   * the bounds: past them the oldest outputs are dropped, and with `dropBare` the oldest pulses
   * as well. Unreadable lines are appended to the rejected file.
   */
  private copyLines(from: string, keep: (entry: SpoolEntry) => boolean, parse: LineParser, dropBare: boolean) {
    const size = fileSize(from);
    const lines = countLines(from);
    let excessLines = lines > SPOOL_MAX_PULSES ? lines - Math.floor(SPOOL_MAX_PULSES * TRIM_TO) : 0;
    let excessBytes = size > SPOOL_MAX_BYTES ? size - Math.floor(SPOOL_MAX_BYTES * TRIM_TO) : 0;
    const file = `${this.file}.${process.pid}.${dropBare ? 2 : 1}.tmp`;
    const out = { file, kept: 0, bytes: 0, rejected: 0, droppedOutputs: 0, droppedPulses: 0 };
    const fd = openSync(file, 'w', 0o600);
    let copied = false;
    try {
      for (const line of fileLines(from)) {
        if (!line.text.trim()) continue;
        const entry = parse(line.text);
        if (!entry) {
          // We hold the write lock, so even an incomplete last line is a dead writer's.
          appendFileSync(this.rejectedFile, `${line.text}\n`, { mode: 0o600 });
          out.rejected++;
          continue;
        }
        const length = Buffer.byteLength(line.text) + 1;
        if (!keep(entry)) {
          excessBytes -= length;
          continue;
        }
        let text = line.text;
        if (excessLines > 0 || (excessBytes > 0 && dropBare)) {
          excessLines--;
          excessBytes -= length;
          out.droppedPulses++;
          continue;
        }
        if (excessBytes > 0 && entry.pulse.body && entry.pulse.body !== DROPPED_OUTPUT) {
          text = lineOf({ ...entry, pulse: { ...entry.pulse, body: DROPPED_OUTPUT } });
          excessBytes -= length - Buffer.byteLength(text) - 1;
          out.droppedOutputs++;
        }
        writeWhole(fd, `${text}\n`);
        out.kept++;
        out.bytes += Buffer.byteLength(text) + 1;
      }
      copied = true;
    } finally {
      closeSync(fd);
      // A copy a full disk cut short is of no use, and holds room the disk lacks.
      if (!copied) unlinkQuietly(file);
    }
    return out;
  }

  private sentIds(): Set<string> {
    if (!existsSync(this.sentFile)) return new Set();
    return new Set(readFileSync(this.sentFile, 'utf8').split('\n').filter(Boolean));
  }
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Writes all of `text`: a write may take less than asked (a disk filling up says ENOSPC only at the next one). */
function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
}
