import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What is remembered of a line's monitor: its pulse token, and what the line said when the agent last confirmed it. */
export interface RememberedLine {
  token: string;
  /** The line's settings (schedule, zone, grace, server) as one string; a change means the agent must hear it. */
  said: string;
}

/**
 * The monitors that jobs' lines pulsed, remembered beside the spool (`lines.json`), so the next
 * run of a line starts its job and pulses its monitor by token, with no question to the agent
 * first. Entries are keyed by a hash of the agent, the key and the slug: the key itself is not
 * written here. Never throws: a memory that cannot be read or written only means asking again.
 */
export class LineMemory {
  private readonly file: string;

  constructor(folder: string) {
    this.file = join(folder, 'lines.json');
  }

  static entryKey(baseUrl: string, apiKey: string, slug: string): string {
    return createHash('sha256').update(`${baseUrl}\n${apiKey}\n${slug}`).digest('hex');
  }

  recall(entry: string): RememberedLine | undefined {
    const remembered = this.read()[entry];
    return remembered && typeof remembered.token === 'string' && typeof remembered.said === 'string' ? remembered : undefined;
  }

  remember(entry: string, line: RememberedLine | undefined): void {
    try {
      const all = this.read();
      if (line) all[entry] = line;
      else delete all[entry];
      // Written whole and renamed, so a reader never sees half a file; of two writers at once, one wins.
      const temporary = `${this.file}.${randomUUID()}.tmp`;
      try {
        writeFileSync(temporary, JSON.stringify(all), { mode: 0o600 });
        renameSync(temporary, this.file);
      } catch (error) {
        // A write a full disk refused leaves the file made empty: one more at every run, for good.
        try {
          unlinkSync(temporary);
        } catch {
          // never made
        }
        throw error;
      }
    } catch {
      // Not remembered: the next run asks the agent again.
    }
  }

  private read(): Record<string, RememberedLine> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, RememberedLine>) : {};
    } catch {
      return {};
    }
  }
}
