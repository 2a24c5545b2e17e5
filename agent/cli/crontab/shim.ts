import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { shellQuote } from '../../domain/text/shellQuote';

/*
 * The stable entry point crontab lines call: a small POSIX sh script, `cronbeat`,
 * beside a copy of the self-contained job side (dist/cronbeat.cjs, as cronbeat-run.cjs), in a folder that is no
 * cache and no temporary folder, readable by every user. The script runs the job through
 * Cronbeat, and runs it directly, once, when Cronbeat cannot start it; the crontab line itself
 * runs the job directly when the script is gone or unreadable (see rewrite.ts).
 */

export const SHIM_NAME = 'cronbeat';
export const RUNNER_NAME = 'cronbeat-run.cjs';

/** Where discover installs the shim by default: /usr/local/lib/cronbeat for root, ~/.local/lib/cronbeat for others. */
export function defaultShimDir(uid: number, home = homedir()): string {
  return uid === 0 ? '/usr/local/lib/cronbeat' : join(home, '.local', 'lib', 'cronbeat');
}

/** Folders that come and go: temporary folders and package-manager caches (npx, pnpm, yarn, ~/.cache). */
const VOLATILE = [/\/_npx\//, /\/\.npm\//, /\/\.cache\//, /\/\.pnpm-store\//, /\/pnpm\/store\//, /\/\.yarn\/cache\//, /\/node_modules\/\.cache\//];
const TEMPORARY_ROOTS = ['/tmp', '/var/tmp', '/dev/shm', '/run/user'];

/** `path` with its symbolic links resolved, as far as it exists (the rest, still to be made, appended as given). */
function realPlace(path: string): string {
  const full = resolve(path);
  try {
    return realpathSync(full);
  } catch {
    const parent = dirname(full);
    return parent === full ? full : join(realPlace(parent), basename(full));
  }
}

/**
 * Why `path` is no place for a crontab line to point at (a cache or a temporary folder, itself or
 * where its symbolic links lead); null when it is fine.
 */
export function volatilePlace(path: string): string | null {
  return volatileFolder(path) ?? volatileFolder(realPlace(path));
}

function volatileFolder(path: string): string | null {
  const full = resolve(path) + sep;
  const temporary = [...TEMPORARY_ROOTS, resolve(tmpdir())].find((root) => full.startsWith(root + sep));
  if (temporary) return `${temporary} is a temporary folder`;
  if (VOLATILE.some((pattern) => pattern.test(full))) return 'it is inside a package cache (npx, npm, pnpm, yarn or ~/.cache), which is cleaned at will';
  return null;
}

/** The first folder of `path` (or the file) that users other than its owner cannot pass or read; null when all can. */
export function closedToOthers(path: string): string | null {
  const full = resolve(path);
  if (!(statSync(full).mode & 0o004)) return full;
  for (let folder = dirname(full); ; folder = dirname(folder)) {
    if (!(statSync(folder).mode & 0o001)) return folder;
    if (folder === dirname(folder)) return null;
  }
}

/** The shim's text: `node` and the runner at fixed paths, the job run directly when they cannot start it. */
export function shimScript(node: string | null, runner: string): string {
  return `#!/bin/sh
# Cronbeat's entry point for crontab lines, written by \`cronbeat crontab discover\`.
# \`cronbeat run TOKEN -- COMMAND\` runs COMMAND through Cronbeat's job runner. When the runner
# cannot start it (node or the runner missing, unreadable, or failing as it loads), COMMAND
# runs directly instead: once, with its own exit status. The runner says "started" on fd 3
# just before it starts COMMAND, so a runner that dies after that never causes a second run.
# TERM, INT, HUP and QUIT sent to this script's PID go on to the runner, which passes them to
# COMMAND: the runner runs in the background and this script waits in \`wait\`, which a trapped
# signal interrupts (inside $(...) a shell runs no trap until it returns), and fd 3 is a FIFO
# in a private temporary folder, removed once both its ends are open. Without a temporary
# folder (or a stdin) the runner runs inside $(...), as earlier entry points ran it.
# Its variables have names no crontab sets: cron exports a crontab's own (node=…, status=…) to the job.
cronbeat_node=${shellQuote(node ?? '')}
cronbeat_runner=${shellQuote(runner)}
[ -n "$cronbeat_node" ] && [ -x "$cronbeat_node" ] || cronbeat_node=$(command -v node) || cronbeat_node=
if [ "$1" != run ]; then exec "$cronbeat_node" "$cronbeat_runner" "$@"; fi
shift
cronbeat_pid= cronbeat_signal= cronbeat_started=
# A signal for the job: passed to the runner now, or as soon as the runner is started; $2 is
# the status of a process it ends.
cronbeat_pass() {
  cronbeat_signal=$1 cronbeat_caught=1 cronbeat_stopped=$2
  [ -z "$cronbeat_pid" ] || kill -s "$1" "$cronbeat_pid" 2>/dev/null
}
# Waits until the runner ends. Waiting again after a signal came late, once it has ended, gives
# its status again (dash) or 127 (bash --posix), so 127 then means: the status before.
cronbeat_wait() {
  cronbeat_status=
  while :; do
    cronbeat_caught=
    wait "$cronbeat_pid" 2>/dev/null
    cronbeat_waited=$?
    [ "$cronbeat_waited" = 127 ] && [ -n "$cronbeat_status" ] && return
    cronbeat_status=$cronbeat_waited
    [ -n "$cronbeat_caught" ] || return
  done
}
# The runner in the background, its fd 3 the FIFO; the job's stdin through fd 5, since a
# background command's own is /dev/null.
cronbeat_background() {
  rm -rf -- "$cronbeat_dir"
  # A signal that came before the runner stops the job before it starts: the runner is not started.
  # (Passed to a runner just forked it could be lost: a background command ignores INT and QUIT
  # until node starts, and dash's child runs this script's traps until it execs node.)
  [ -z "$cronbeat_signal" ] || return
  { "$cronbeat_node" "$cronbeat_runner" run --started-fd 3 "$@" 3>&8 8>&- 9<&- 0<&5 5<&- & } 5<&0
  cronbeat_pid=$!
  exec 8>&-
  [ -z "$cronbeat_signal" ] || kill -s "$cronbeat_signal" "$cronbeat_pid" 2>/dev/null
  cronbeat_wait
  IFS= read -r cronbeat_started <&9
}
# Runs the runner in the background; 1 (nothing run) when there is no FIFO to be had, no stdin,
# or a signal came first. \`--\`: a relative $TMPDIR may start with a dash.
cronbeat_watched() {
  { true 5<&0; } 2>/dev/null || return 1
  cronbeat_dir=$(mktemp -d 2>/dev/null) || return 1
  if mkfifo -- "$cronbeat_dir/started" 2>/dev/null; then
    { cronbeat_background "$@"; } 8<>"$cronbeat_dir/started" 9<"$cronbeat_dir/started"
  fi
  [ ! -d "$cronbeat_dir" ] || rm -rf -- "$cronbeat_dir"
  [ -n "$cronbeat_pid" ]
}
# The runner inside $(...), its stdout through fd 4 (closed, as this script's is, when exec 4>&1
# would end this script): signals to this PID wait until it ends. Its status taken with ||, so
# that bash's errexit (SHELLOPTS=errexit, a crontab may export it) cannot end this script before
# it runs a job the runner could not start.
cronbeat_inline() {
  cronbeat_out=-
  if { true 4>&1; } 2>/dev/null; then exec 4>&1; cronbeat_out=4; fi
  cronbeat_status=0
  cronbeat_started=$("$cronbeat_node" "$cronbeat_runner" run --started-fd 3 "$@" 3>&1 1>&$cronbeat_out 4>&-) || cronbeat_status=$?
  exec 4>&-
}
if [ -n "$cronbeat_node" ] && [ -r "$cronbeat_runner" ]; then
  trap 'cronbeat_pass TERM 143' TERM
  trap 'cronbeat_pass INT 130' INT
  trap 'cronbeat_pass HUP 129' HUP
  trap 'cronbeat_pass QUIT 131' QUIT
  if ! cronbeat_watched "$@"; then
    # A signal that came before the runner started ends this script, as it would have ended the
    # job (bash ignores a QUIT it sends itself: then the status says it).
    trap - TERM INT HUP QUIT
    [ -z "$cronbeat_signal" ] || { kill -s "$cronbeat_signal" $$; exit "$cronbeat_stopped"; }
    cronbeat_inline "$@"
  fi
  [ "$cronbeat_started" = started ] && exit "$cronbeat_status"
  # Stopped before the job started: it does not start now.
  [ -z "$cronbeat_signal" ] || exit "$cronbeat_status"
fi
# Said with PIPE ignored, so that a stderr nobody reads any more cannot end this script before the
# job runs (a PIPE ignored since this script started stays ignored: the job gets what it would have).
trap '' PIPE
echo "cronbeat: the job runner could not start ($cronbeat_runner); running the job without monitoring" >&2
trap - PIPE
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
[ $# -gt 0 ] || exit 2
shift
exec "$@"
`;
}

export interface ShimPlan {
  dir: string;
  shim: string;
  runner: string;
  /** The node the shim tries first; null when this one lives in a cache or temporary folder (then: node on PATH). */
  node: string | null;
}

/** Where the shim goes and which node it names; throws ShimError when `dir` is volatile. */
export function planShim(dir: string, nodePath = process.execPath): ShimPlan {
  const why = volatilePlace(dir);
  if (why) throw new ShimError(`The entry point cannot live in ${dir}: ${why}. Give a stable folder with --shim-dir.`);
  const full = resolve(dir);
  return { dir: full, shim: join(full, SHIM_NAME), runner: join(full, RUNNER_NAME), node: volatilePlace(nodePath) ? null : nodePath };
}

/**
 * Writes the runner (copied from `runnerSource`) and the shim, readable by all (0644, 0755),
 * each replaced atomically. Returns whether anything changed. Throws ShimError when the
 * runner is missing or `othersMustRun` and some folder on the way is closed to other users.
 */
export function installShim(plan: ShimPlan, runnerSource: string, othersMustRun: boolean): boolean {
  if (!existsSync(runnerSource)) throw new ShimError(`The job runner ${runnerSource} is missing: rebuild Cronbeat (npm run build:agent).`);
  mkdirSync(plan.dir, { recursive: true, mode: 0o755 });
  const script = shimScript(plan.node, plan.runner);
  let changed = false;
  if (!sameContent(plan.runner, readFileSync(runnerSource))) {
    const temporary = `${plan.runner}.${process.pid}.tmp`;
    copyFileSync(runnerSource, temporary);
    chmodSync(temporary, 0o644);
    renameSync(temporary, plan.runner);
    changed = true;
  }
  if (!sameContent(plan.shim, Buffer.from(script))) {
    const temporary = `${plan.shim}.${process.pid}.tmp`;
    writeFileSync(temporary, script, { mode: 0o755 });
    chmodSync(temporary, 0o755);
    renameSync(temporary, plan.shim);
    changed = true;
  }
  if (othersMustRun) {
    const closed = closedToOthers(plan.runner) ?? closedToOthers(plan.shim);
    if (closed) throw new ShimError(`Jobs of other users cannot run the entry point: ${closed} is closed to them. Give --shim-dir a folder all users can read (such as /usr/local/lib/cronbeat).`);
  }
  return changed;
}

function sameContent(path: string, content: Buffer): boolean {
  try {
    return readFileSync(path).equals(content);
  } catch {
    return false;
  }
}

export class ShimError extends Error {}
