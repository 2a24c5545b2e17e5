import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/** The shell's own small preferences, kept in the app's data folder next to the agent's database. */
export interface ShellSettings {
  mutedUntil: number | null;
  trayHintShown: boolean;
  /** The agent listens on every address so servers can reach it (tray: "Let servers reach this agent"). */
  reachableFromServers: boolean;
  /** Names servers use for this machine, answered besides its addresses (like `serve --allow-host`). */
  allowedHosts: string[];
}

const DEFAULTS: ShellSettings = { mutedUntil: null, trayHintShown: false, reachableFromServers: false, allowedHosts: [] };

/** Reads settings.json; a missing or unreadable file gives the defaults (and is rewritten on save). */
export function loadSettings(dir: string): ShellSettings {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as Partial<ShellSettings>;
    return {
      mutedUntil: typeof parsed.mutedUntil === 'number' ? parsed.mutedUntil : null,
      trayHintShown: parsed.trayHintShown === true,
      reachableFromServers: parsed.reachableFromServers === true,
      allowedHosts: Array.isArray(parsed.allowedHosts) ? parsed.allowedHosts.filter((name) => typeof name === 'string' && name.trim() !== '') : [],
    };
  } catch {
    return { ...DEFAULTS, allowedHosts: [] };
  }
}

/** Writes atomically (temp file then rename) so a crash never leaves half a file. */
export function saveSettings(dir: string, settings: ShellSettings): void {
  const file = join(dir, 'settings.json');
  writeFileSync(`${file}.tmp`, JSON.stringify(settings, null, 2), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
