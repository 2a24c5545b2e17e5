import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/** The shell's own small preferences, kept in the app's data folder next to the agent's database. */
export interface ShellSettings {
  mutedUntil: number | null;
  trayHintShown: boolean;
}

const DEFAULTS: ShellSettings = { mutedUntil: null, trayHintShown: false };

/** Reads settings.json; a missing or unreadable file gives the defaults (and is rewritten on save). */
export function loadSettings(dir: string): ShellSettings {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as Partial<ShellSettings>;
    return {
      mutedUntil: typeof parsed.mutedUntil === 'number' ? parsed.mutedUntil : null,
      trayHintShown: parsed.trayHintShown === true,
    };
  } catch {
    return { ...DEFAULTS };
  }
}

/** Writes atomically (temp file then rename) so a crash never leaves half a file. */
export function saveSettings(dir: string, settings: ShellSettings): void {
  const file = join(dir, 'settings.json');
  writeFileSync(`${file}.tmp`, JSON.stringify(settings, null, 2), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
