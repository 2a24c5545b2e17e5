import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `file` with `text`, whole or not at all: written beside it, then renamed over it. In
 * place, a full disk cut the unit short (its old text gone), and at the next boot systemd found no
 * agent to start.
 */
export function replaceFile(file: string, text: string, mode: number): void {
  const temporary = join(dirname(file), `.${basename(file)}.cronbeat-${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text, { mode });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
