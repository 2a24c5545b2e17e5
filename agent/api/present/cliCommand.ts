import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { shellQuote } from '../../domain/text/shellQuote';

/*
 * How this machine runs the `cronbeat` CLI, for the lines the dashboard hands out: after
 * `npm install && npm start` nothing puts `cronbeat` on the PATH, so a bare "cronbeat run …"
 * fails with "command not found". The dashboard shows the command that works as copied.
 */

export interface CliFacts {
  /** dist/cronbeat.cjs of this installation; null when not built. */
  bundle: string | null;
  /** Where `cronbeat` on the PATH really is (symlinks followed); null when there is none. */
  cronbeatOnPath: string | null;
  /**
   * Whether a job run by cron finds that same `cronbeat` and a `node` for its `#!/usr/bin/env node`
   * on the PATH cron gives jobs (CRON_PATH): npm's `bin` under nvm or in /usr/local/bin is on a
   * login shell's PATH only, and there `cronbeat run … -- job` fails with "not found", job unrun.
   */
  cronFindsIt: boolean;
  /** An absolute `node` found on the PATH; null when there is none. */
  nodeOnPath: string | null;
  /** The program running the agent, and whether it is Electron (which runs scripts only as ELECTRON_RUN_AS_NODE). */
  execPath: string;
  inElectron: boolean;
}

export interface CliCommand {
  /** What to type before `run …`: "cronbeat", or absolute paths such as "/usr/bin/node /opt/cronbeat/dist/cronbeat.cjs". */
  command: string;
  /** True when `cronbeat` on the PATH is this installation's CLI. */
  on_path: boolean;
}

/**
 * The shortest command that runs this installation's CLI from any shell (cron's PATH
 * included): `cronbeat` only when the PATH's one is ours and cron finds it; else node and the bundle by absolute
 * path; inside Electron without a node on the PATH (or from an installed app, whose bundle is
 * inside app.asar), Electron itself as node.
 */
export function cliCommandFor(facts: CliFacts): CliCommand {
  if (facts.cronbeatOnPath && facts.cronFindsIt && (facts.bundle === null || facts.cronbeatOnPath === facts.bundle)) {
    return { command: 'cronbeat', on_path: true };
  }
  if (facts.bundle === null) return { command: 'cronbeat', on_path: false };
  const bundle = shellQuote(facts.bundle);
  if (!facts.inElectron) return { command: `${shellQuote(facts.execPath)} ${bundle}`, on_path: false };
  // Inside an installed app the bundle sits in app.asar, which only Electron can read.
  const inAsar = /\.asar[\\/]/.test(facts.bundle);
  if (facts.nodeOnPath && !inAsar) return { command: `${shellQuote(facts.nodeOnPath)} ${bundle}`, on_path: false };
  return { command: `ELECTRON_RUN_AS_NODE=1 ${shellQuote(facts.execPath)} ${bundle}`, on_path: false };
}

/** The PATH cron gives the jobs of a user's crontab (Debian's and Red Hat's cron, macOS), unless the crontab sets one. */
export const CRON_PATH = '/usr/bin:/bin';

/** The facts of this process: its bundle, its PATH, its runtime (`cronPath`: see CRON_PATH). */
export function cliFactsOfThisProcess(pathVariable = process.env.PATH ?? '', cronPath = CRON_PATH): CliFacts {
  const onPath = findOnPath('cronbeat', pathVariable);
  const cronbeatOnPath = onPath ? realpathOrSelf(onPath) : null;
  const forCron = findOnPath('cronbeat', cronPath);
  return {
    bundle: findCliBundle(),
    cronbeatOnPath,
    cronFindsIt: forCron !== null && realpathOrSelf(forCron) === cronbeatOnPath && findOnPath('node', cronPath) !== null,
    nodeOnPath: findOnPath(process.platform === 'win32' ? 'node.exe' : 'node', pathVariable),
    execPath: process.execPath,
    inElectron: Boolean(process.versions.electron),
  };
}

/** dist/cronbeat.cjs next to the running bundle (dist/cronbeat.cjs, dist/main/main.cjs) or above the source file. */
export function findCliBundle(start = moduleDir()): string | null {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, dir.endsWith('dist') ? '' : 'dist', 'cronbeat.cjs');
    if (existsSync(candidate)) return realpathOrSelf(candidate);
    if (dirname(dir) === dir) return null;
  }
}

function findOnPath(program: string, pathVariable: string): string | null {
  for (const dir of pathVariable.split(delimiter)) {
    if (!dir || !dir.startsWith('/') && !/^[A-Za-z]:\\/.test(dir)) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function moduleDir(): string {
  // __dirname in the CommonJS bundle; import.meta.url when run from source (vitest, tsx).
  return typeof __dirname === 'string' ? __dirname : dirname(new URL(import.meta.url).pathname);
}
