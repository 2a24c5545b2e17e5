import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/*
 * The state file of a watcher (`crontab watch`, `timers watch`): what it saw last and the alerts
 * not yet delivered, saved before sending so each change goes out exactly once across restarts.
 */

interface WatchState {
  version: 1;
  pending: unknown[];
}

/**
 * The state in `file`, or null when there is none or it cannot be read (missing, damaged, of
 * another version, without its `list`): a new baseline then, rather than alerts about everything.
 */
export function loadWatchState<S extends WatchState>(file: string, list: Exclude<keyof S, 'version' | 'pending'>): S | null {
  if (!existsSync(file)) return null;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as S;
    if (state.version === 1 && Array.isArray(state[list]) && Array.isArray(state.pending)) return state;
  } catch {
    // Unreadable: as if there were none.
  }
  return null;
}

/** Writes the whole state beside `file`, then renames it over: a watcher stopped mid-write never leaves half a file. */
export function saveWatchState<S extends WatchState>(file: string, state: S): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 1)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}
