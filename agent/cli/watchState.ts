import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The state file of a watcher of `server` in the data folder, its name safe whatever the
 * identifier holds. A watcher given its own set of files (`watched`: their paths) gets a file of
 * its own, named by a hash of that set: two watchers of one server over different files would
 * otherwise take each other's snapshot for their own, and alert its jobs as removed and added.
 */
export function watchStateFile(dataDir: string, kind: string, server: string, watched: string[] = []): string {
  const name = `${kind}-${server.replace(/[^A-Za-z0-9._-]/g, '_')}`;
  const set = fileSet(watched);
  return join(dataDir, set === null ? `${name}.json` : `${name}-files-${set}.json`);
}

/** A hash naming a set of watched files, whatever their order; null for none given (the machine's own). */
function fileSet(watched: string[]): string | null {
  if (watched.length === 0) return null;
  return createHash('sha256').update([...new Set(watched)].sort().join('\0')).digest('hex').slice(0, 12);
}

/**
 * How a watcher names itself in its reports, by what names its state file (its kind and file set):
 * the agent counts each watcher's jobs apart, so two watchers of one server over different files
 * show the sum of their jobs instead of each replacing the other's count.
 */
export function watcherName(kind: string, watched: string[] = []): string {
  const set = fileSet(watched);
  return set === null ? kind : `${kind}-files-${set}`;
}

/**
 * Takes over the state file a watcher of the same files kept before state files were named by
 * what they watch (`shared`), when all it holds came from `owns` files: so an upgrade starts
 * from the snapshot it had, not from a new baseline that would miss what changed meanwhile.
 */
export function adoptSharedState(file: string, shared: string, owns: (state: Record<string, unknown>) => boolean): void {
  if (file === shared || existsSync(file) || !existsSync(shared)) return;
  try {
    if (owns(JSON.parse(readFileSync(shared, 'utf8')) as Record<string, unknown>)) copyFileSync(shared, file);
  } catch {
    // Unreadable: a new baseline, as for any damaged state.
  }
}

/** How many start times of `--once` runs a state file keeps, to learn how often the watcher is started. */
const KEPT_RUNS = 8;
/** A gap shorter than this is a run by hand: cron starts nothing more often than once a minute. */
const SHORTEST_GAP_MS = 60_000;
/** Gaps seen before the interval is trusted: a run or two by hand while setting up must not teach it a short one. */
const GAPS_TO_LEARN = 3;
/** The longest interval a watcher may report (the API's bound), and what one that has not learned its own yet reports. */
const LONGEST_INTERVAL_SECONDS = 86_400;

/**
 * The interval a `--once` run started at `now` reports when it was not given `--interval`,
 * learned from the start times of the runs before it (`runs`): the longest gap among them, to
 * the nearest minute (a second or two of start-up is the quiet rule's minute of slack), so a run
 * cron skipped or started late never makes the watcher look quiet; a
 * day until it has seen enough gaps. A fixed guess would be wrong one way or the other: 60 s
 * made a watcher run every 5 minutes quiet, and then reporting again, at every run.
 */
export function learnedInterval(runs: readonly number[], now: number): number {
  const times = [...runs.filter((run) => run < now), now];
  const gaps = times
    .slice(1)
    .map((time, index) => time - times[index]!)
    .filter((gap) => gap >= SHORTEST_GAP_MS);
  if (gaps.length < GAPS_TO_LEARN) return LONGEST_INTERVAL_SECONDS;
  return Math.min(LONGEST_INTERVAL_SECONDS, Math.round(Math.max(...gaps) / 60_000) * 60);
}

/** The start times a state file keeps after a run at `now`: the latest KEPT_RUNS, a clock set back dropping those after it. */
export function runsAfter(runs: readonly number[] | undefined, now: number): number[] {
  return [...(runs ?? []).filter((run) => run < now), now].slice(-KEPT_RUNS);
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
