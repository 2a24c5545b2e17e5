import { readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync, mkdirSync, renameSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DROP_IN_NAME, timerOfDropIn, tokenOfDropIn } from './dropIn';

/*
 * The drop-ins on disk: which services `timers discover` wired (found by its mark, so a second
 * run and --undo see exactly what it wrote), and writing them so that a folder that refuses
 * leaves nothing half-written.
 */

export interface WiredService {
  service: string;
  path: string;
  token: string;
  /** The timer whose monitor the drop-in pulses; null when its first line does not say. */
  timer: string | null;
}

/** The services of `folder` with a drop-in of ours. */
export function wiredServices(folder: string): WiredService[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const wired: WiredService[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.d')) continue;
    const path = join(folder, name, DROP_IN_NAME);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const token = tokenOfDropIn(text);
    if (token !== null) wired.push({ service: name.slice(0, -2), path, token, timer: timerOfDropIn(text) });
  }
  return wired;
}

export class UnitWriteError extends Error {}

/** The first folder of `path` and its parents that exists. */
function existingAncestor(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/** Throws UnitWriteError when nothing can be written under `folder` (tried for real: root ignores modes, not a read-only mount). */
export function checkWritable(folder: string): void {
  const at = existingAncestor(folder);
  const probe = join(at, `.cronbeat-probe-${process.pid}`);
  try {
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (error) {
    throw new UnitWriteError(`Cannot write in ${at} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): nothing was changed. Run as the owner of the unit folder (sudo for system timers), or give --root.`);
  }
}

/** What a run wrote, so a failure half-way takes it back. */
export class Writes {
  private files: string[] = [];
  private folders: string[] = [];

  /** Writes `text` to `path` atomically, making its folder when needed. */
  write(path: string, text: string): void {
    const folder = dirname(path);
    const missing: string[] = [];
    for (let at = folder; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
    for (const dir of missing) {
      mkdirSync(dir, { mode: 0o755 });
      this.folders.push(dir);
    }
    const temporary = join(folder, `.${DROP_IN_NAME}.${process.pid}.tmp`);
    writeFileSync(temporary, text, { mode: 0o644 });
    renameSync(temporary, path);
    this.files.push(path);
  }

  /** Removes what was written, newest first. */
  rollBack(): void {
    for (const file of this.files.reverse()) unlinkSync(file);
    for (const folder of this.folders.reverse()) rmdirSync(folder);
    this.files = [];
    this.folders = [];
  }
}

/** Removes a drop-in of ours, and its folder when nothing else is left in it. */
export function removeDropIn(path: string): void {
  unlinkSync(path);
  try {
    rmdirSync(dirname(path));
  } catch {
    // Other drop-ins live there: the folder stays.
  }
}
