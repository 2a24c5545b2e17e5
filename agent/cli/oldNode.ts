import { spawnSync } from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { jobStart, notRunnableStatus } from './run/rawWords';
import { readRunWords, type RunWords } from './run/runWords';
import { engines } from '../../package.json';

/*
 * dist/cronbeat.cjs is copied to servers and started by whatever `node` is there, often a
 * distribution's old one (Ubuntu 22.04's is 12, Debian 12's 18). On those, the rest of the file
 * fails in ways that say nothing useful (a screenful of minified source and a SyntaxError, or
 * "URL.canParse is not a function" halfway through), and a SyntaxError would skip the job that
 * `cronbeat run` wraps. main.ts imports this module first, so it runs before any other module's
 * code, and the build lowers the file's syntax to what Node 8 parses: on a Node older than
 * package.json's `engines` it says so in one line, and `run` still runs its job (unmonitored,
 * its exit status its own), synchronously, so that nothing else of this file ever starts.
 * Everything here, and everything it imports, must work on such a Node: plain fs, child_process and os.
 */

/** The oldest Node Cronbeat runs on, from package.json's `engines` (">=20.19"). */
const MINIMUM = (/(\d+)\.(\d+)/.exec(engines.node) ?? ['', '20', '19']).slice(1, 3).map(Number);

/** Whether `version` ("20.18.1", as in process.versions.node) is older than the minimum. */
export function nodeTooOld(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1]);
}

/** Runs the job of `run`'s words as written, unmonitored; returns its exit status as `cronbeat run` gives it. */
function runJobAlone(words: RunWords): number {
  const fd = Number(words.values['started-fd']);
  if (Number.isInteger(fd) && fd >= 3) {
    // The fail-open shim of `crontab discover` runs the job itself unless told it started here.
    try {
      writeSync(fd, 'started');
      closeSync(fd);
    } catch {
      // No shim listening.
    }
  }
  const start = jobStart(words.command);
  const result = spawnSync(start.file, start.args, { stdio: 'inherit' });
  if (result.error) {
    console.error(`cronbeat: ${words.command[0]} could not be started (${result.error.message}).`);
    return notRunnableStatus(result.error);
  }
  if (result.status !== null) return result.status;
  const signals = constants.signals as Record<string, number>;
  return 128 + (result.signal ? signals[result.signal] || 0 : 0);
}

if (nodeTooOld(process.versions.node)) {
  const [command, ...rest] = process.argv.slice(2);
  const words = command === 'run' ? readRunWords(rest) : null;
  const job = words !== null && words.command.length > 0;
  console.error(
    `cronbeat: Node ${process.versions.node} is too old: Cronbeat needs Node ${MINIMUM.join('.')} or newer` +
      ` (see "Getting cronbeat" in docs/cli.md)${job ? '; the command runs, unmonitored.' : '.'}`,
  );
  process.exit(words && job ? runJobAlone(words) : words ? 2 : 1);
}
