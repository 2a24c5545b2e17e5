/*
 * Progress of long CLI work (discover over many lines, backup and restore of a big database,
 * spool flush) on stderr, for a person watching a terminal: one line redrawn in place,
 * "Backing up: 42% (420 of 1,000 pages)". Nothing at all when stderr is not a terminal, so
 * cron mail, pipes and logs get only the result.
 */

export interface Progress {
  /** `done` of `total` so far. */
  update(done: number, total: number): void;
  /** Clears the line, so the result prints on a clean one. */
  end(): void;
}

const SILENT: Progress = { update: () => undefined, end: () => undefined };

interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const count = (n: number) => n.toLocaleString('en-US');

/** "3 of 40 pulses". */
export const counted = (plural: string) => (done: number, total: number) => `${count(done)} of ${count(total)} ${plural}`;

/** "12.5 of 300.0 MB", for byte counts. */
export const megabytes = (done: number, total: number) => `${(done / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB`;

/**
 * A progress line for `label` on `stream` (stderr), the amounts said by `amounts` (counted,
 * megabytes), redrawn at most every `everyMs`; silent unless the stream is a terminal.
 */
export function progressLine(
  label: string,
  amounts: (done: number, total: number) => string,
  stream: ProgressStream = process.stderr,
  everyMs = 100,
): Progress {
  if (!stream.isTTY) return SILENT;
  let drawnAt = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - drawnAt < everyMs) return;
      drawnAt = now;
      drawn = true;
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
      const text = `${label}: ${percent}% (${amounts(done, total)})`;
      stream.write(`\r${text.slice(0, (stream.columns || 80) - 1)}\x1b[K`);
    },
    end() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
