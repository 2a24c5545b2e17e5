import { randomUUID } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tryLock, waitForLock, waitForLockSync } from './lockFile';
import type { Pulse } from './pulses';
import { lineOf, type SpoolEntry } from './spoolEntry';

export type { SpoolEntry };

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

/** The spool keeps at most this many pulses; beyond, the oldest are dropped. */
export const SPOOL_MAX_PULSES = 10_000;
/** …and at most this many bytes; beyond, the oldest outputs are dropped first, then the oldest pulses. */
export const SPOOL_MAX_BYTES = 8 * 1024 * 1024;
/** A full spool is trimmed this far below its bounds, so it is not rewritten at every pulse. */
const TRIM_TO = 0.75;
/** The body a pulse keeps when the spool had to drop its output. */
export const DROPPED_OUTPUT = "[cronbeat: this run's output was dropped: the spool was full]";
/** A line longer than this is no entry the CLI wrote (a body is at most 100 KB): only its start is set aside. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

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
 * - One replay at a time (a second lock file, held for the whole replay) sends entries in
 *   order and records each id in `spool.sent` as soon as it is delivered, so a replay that
 *   stops half-way sends nothing twice. When everything is delivered the file is compacted.
 * - A line that is not a valid entry never stops delivery: it is skipped, and moved to
 *   `spool.rejected.jsonl` at the next rewrite, with one warning.
 * - Bounded: past SPOOL_MAX_PULSES or SPOOL_MAX_BYTES the oldest outputs are dropped first,
 *   then the oldest pulses, with one warning until the spool has been emptied.
 */
export class Spool {
  readonly file: string;
  readonly rejectedFile: string;
  private readonly sentFile: string;
  private readonly writeLock: string;
  private readonly replayLock: string;
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
    const entry: SpoolEntry = { id: randomUUID(), baseUrl, pulse };
    const line = `${lineOf(entry)}\n`;
    let size: number;
    // Waiting longer than this would hold up a job; a plain O_APPEND write is still atomic.
    const lock = waitForLockSync(this.writeLock, 2_000);
    try {
      const fd = openSync(this.file, 'a+', 0o600);
      try {
        // A writer killed mid-line must not swallow this entry into its half line.
        const prefix = endsWithNewline(fd) ? '' : '\n';
        writeSync(fd, prefix + line);
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
    if (!lock) return { ...result, busy: true, waiting: fileSize(this.file) > SPOOL_MAX_BYTES ? [] : await this.pending() };
    const offered = new Set<string>();
    const unoffered = async () => (await this.pending()).filter((entry) => !offered.has(entry.id));
    while (lock) {
      try {
        // A spool past its bounds is trimmed before it is read whole.
        if (fileSize(this.file) > SPOOL_MAX_BYTES) await this.rewrite(false);
        let batch = await unoffered();
        if (batch.length > SPOOL_MAX_PULSES) {
          await this.rewrite(false);
          batch = await unoffered();
        }
        let unreadable = this.unreadable;
        for (; batch.length > 0; batch = await unoffered(), unreadable += this.unreadable) {
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
        if (result.waiting.length === 0 || unreadable > 0) await this.rewrite(true);
      } finally {
        lock.release();
      }
      // A writer that found us busy appended after our last look: take it along, unless
      // another replay has started and will.
      lock = (await unoffered()).length > 0 ? tryLock(this.replayLock) : null;
    }
    return result;
  }

  /**
   * Rewrites the file under the write lock: lines that are no valid entry move to the
   * rejected file, delivered entries go (`dropSent`, only for the replay lock's holder), and a
   * spool past its bounds loses the oldest outputs, then the oldest pulses. Streams, so a
   * spool of any size costs a few MB of memory.
   */
  private async rewrite(dropSent: boolean): Promise<void> {
    const parse = await loadParser();
    const lock = waitForLockSync(this.writeLock, 2_000);
    if (!lock) return; // rewriting later is fine; the sent list keeps replays exact meanwhile
    try {
      const sent = dropSent ? this.sentIds() : new Set<string>();
      const first = this.copyLines(this.file, (entry) => !sent.has(entry.id), parse, false);
      // Every output dropped and still too big: the oldest pulses go too.
      const second = first.bytes > SPOOL_MAX_BYTES ? this.copyLines(first.file, () => true, parse, true) : undefined;
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
        writeSync(fd, `${text}\n`);
        out.kept++;
        out.bytes += Buffer.byteLength(text) + 1;
      }
    } finally {
      closeSync(fd);
    }
    return out;
  }

  private sentIds(): Set<string> {
    if (!existsSync(this.sentFile)) return new Set();
    return new Set(readFileSync(this.sentFile, 'utf8').split('\n').filter(Boolean));
  }
}

/** How many lines a file has, counting newlines without decoding. */
function countLines(file: string): number {
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
function* fileLines(file: string): Generator<{ text: string; complete: boolean }> {
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

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
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

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
