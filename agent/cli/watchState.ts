import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  try {
    writeFileSync(temporary, `${JSON.stringify(state, null, 1)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    // A full disk makes the file and refuses its text: left, one more at every `--once`, for good.
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The state file of a watcher of `server` in the data folder, its name safe whatever the identifier holds. */
export function watchStateFile(dataDir: string, kind: string, server: string): string {
  return join(dataDir, `${kind}-${server.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

/** A watcher's log line: stamped with the time, on standard output. */
export const stampedLog = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

/**
 * A watcher's log that says a line once while it holds: a line said in the round before is not
 * said again (an agent down for a day would otherwise get the same warning, and every waiting
 * alert, written each minute); said anew once a round has passed without it. Call `nextRound`
 * at the start of each round.
 */
export function onceWhileItHolds(log: (line: string) => void): { log: (line: string) => void; nextRound(): void } {
  let previous = new Set<string>();
  let current = new Set<string>();
  return {
    log(line) {
      current.add(line);
      if (!previous.has(line)) log(line);
    },
    nextRound() {
      previous = current;
      current = new Set();
    },
  };
}

/**
 * Runs a watcher's `round` every `intervalMs` until SIGINT or SIGTERM (exit 0; a signal during the
 * wait ends it at once) or until a round returns an exit status (`--once`).
 */
export async function everyInterval(intervalMs: number, round: () => Promise<number | null>): Promise<number> {
  let stopping = false;
  let wake: () => void = () => {};
  const stop = () => {
    stopping = true;
    wake();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    for (;;) {
      const status = await round();
      if (status !== null) return status;
      if (stopping) return 0;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopping) return 0;
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
