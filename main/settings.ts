import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { agentBase } from './connectRequest';

/** The shell's own small preferences, kept in the app's data folder next to the agent's database. */
export interface ShellSettings {
  mutedUntil: number | null;
  trayHintShown: boolean;
  /** The agent listens on every address so servers can reach it (tray: "Let servers reach this agent"). */
  reachableFromServers: boolean;
  /** Names servers use for this machine, answered besides its addresses (like `serve --allow-host`). */
  allowedHosts: string[];
  /** Run the agent inside the app ('local', as always) or show the saved agent on another machine. */
  agentMode: 'local' | 'remote';
  /** The agent on another machine to connect to, kept while the app runs its own (file mode 0600). */
  remoteAgent: RemoteAgentSettings | null;
}

export interface RemoteAgentSettings {
  url: string;
  key: string;
  access: 'full' | 'read-only';
}

const DEFAULTS: ShellSettings = { mutedUntil: null, trayHintShown: false, reachableFromServers: false, allowedHosts: [], agentMode: 'local', remoteAgent: null };

/** A saved remote agent, or null when the file's entry is missing or malformed. */
function remoteAgentFrom(value: unknown): RemoteAgentSettings | null {
  const entry = value as Partial<RemoteAgentSettings> | null;
  if (!entry || typeof entry.url !== 'string' || typeof entry.key !== 'string' || !/^https?:\/\/[^/]/.test(entry.url)) return null;
  try {
    // Paths are appended to it: its origin, and the sub-path of a proxy in front, if any.
    return { url: agentBase(new URL(entry.url)), key: entry.key, access: entry.access === 'full' ? 'full' : 'read-only' };
  } catch {
    return null;
  }
}

/** Reads settings.json; a missing or unreadable file gives the defaults (and is rewritten on save). */
export function loadSettings(dir: string): ShellSettings {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as Partial<ShellSettings>;
    return {
      mutedUntil: typeof parsed.mutedUntil === 'number' ? parsed.mutedUntil : null,
      trayHintShown: parsed.trayHintShown === true,
      reachableFromServers: parsed.reachableFromServers === true,
      allowedHosts: Array.isArray(parsed.allowedHosts) ? parsed.allowedHosts.filter((name) => typeof name === 'string' && name.trim() !== '') : [],
      ...agentChoice(parsed),
    };
  } catch {
    return { ...DEFAULTS, allowedHosts: [] };
  }
}

/** The agent to show: the remote one only when one is saved and chosen. */
function agentChoice(parsed: Partial<ShellSettings>): Pick<ShellSettings, 'agentMode' | 'remoteAgent'> {
  const remoteAgent = remoteAgentFrom(parsed.remoteAgent);
  return { remoteAgent, agentMode: parsed.agentMode === 'remote' && remoteAgent ? 'remote' : 'local' };
}

/** Writes atomically (temp file then rename) so a crash never leaves half a file. */
export function saveSettings(dir: string, settings: ShellSettings): void {
  const file = join(dir, 'settings.json');
  writeFileSync(`${file}.tmp`, JSON.stringify(settings, null, 2), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
