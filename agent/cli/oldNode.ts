import type { ChildProcess } from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { notRunnableStatus, spawnJob } from './run/rawWords';
import { forwardSignals } from './run/runJob';
import { terminalText } from '../domain/text/controlCharacters';
import { closestTo } from './didYouMean';
import { optionsBeforeRun, readRunWords, type RunWords } from './run/runWords';
import { engines } from '../../package.json';

/*
 * dist/cronbeat.cjs is copied to servers and started by whatever `node` is there, often a
 * distribution's old one (Ubuntu 22.04's is 12, Debian 12's 18). On those, the rest of the file
 * fails in ways that say nothing useful (a screenful of minified source and a SyntaxError, or
 * "URL.canParse is not a function" halfway through), and a SyntaxError would skip the job that
 * `cronbeat run` wraps. main.ts imports this module first, so it runs before any other module's
 * code, and the build lowers the file's syntax to what Node 8 parses: on a Node older than
 * package.json's `engines` it says so in one line, and `run` still runs its job (unmonitored,
 * its exit status its own), and nothing else of this file ever starts.
 * Everything here, and everything it imports, must work on such a Node: plain fs, child_process and os.
 */

/** The oldest Node Cronbeat runs on, from package.json's `engines` (">=20.19"). */
const MINIMUM = (/(\d+)\.(\d+)/.exec(engines.node) ?? ['', '20', '19']).slice(1, 3).map(Number);

/** Whether `version` ("20.18.1", as in process.versions.node) is older than the minimum. */
export function nodeTooOld(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1]);
}

/** Thrown once the job has started, to stop the rest of this file from loading; the job's end ends the process. */
const STARTED_ALONE = new Error('cronbeat: the job runs alone on this Node');

/**
 * Runs the job of `run`'s words as written, unmonitored, and exits with its status as `cronbeat
 * run` gives it. Asynchronous, so that a signal sent to `run` (systemd stopping the unit,
 * `timeout`) is passed on to the job as on a newer Node, rather than ending `run` and leaving the
 * job behind, unaware.
 */
function runJobAlone(words: RunWords): never {
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
  const signals = constants.signals as Record<string, number>;
  const notStarted = (error: Error) => {
    console.error(terminalText(`cronbeat: ${words.command[0]} could not be started (${error.message}).`, { oneLine: true }));
    return process.exit(notRunnableStatus(error));
  };
  let child: ChildProcess;
  const forwarding = forwardSignals();
  try {
    child = spawnJob(words.command, { stdio: 'inherit' });
  } catch (error) {
    return notStarted(error as Error); // Node 8 throws some failures (EACCES) instead of emitting them
  }
  forwarding.to(child);
  child.on('error', notStarted);
  child.on('exit', (status, signal) => process.exit(status !== null ? status : 128 + (signal ? signals[signal] || 0 : 0)));
  // Nothing else of this file may start on this Node: the throw ends its loading, and is the one
  // exception let pass; anything else thrown meanwhile is said, and the job still ends the process.
  process.on('uncaughtException', (error) => {
    if (error !== STARTED_ALONE) console.error(`cronbeat: ${error && error.message}`);
  });
  throw STARTED_ALONE;
}

if (nodeTooOld(process.versions.node)) {
  const [command, ...rest] = process.argv.slice(2);
  // A misspelt run whose line holds a job is a run line too (main.ts reads it so on a newer Node).
  const runLike = command === 'run' || (command !== undefined && closestTo(command, ['run', 'ping', 'spool']).join() === 'run' && readRunWords(rest).command.length > 0);
  const optionsFirst = command?.startsWith('-') ? optionsBeforeRun(process.argv.slice(2)) : null;
  const words = runLike ? readRunWords(rest) : optionsFirst ? readRunWords(optionsFirst) : null;
  const job = words !== null && words.command.length > 0;
  console.error(
    `cronbeat: Node ${process.versions.node} is too old: Cronbeat needs Node ${MINIMUM.join('.')} or newer` +
      ` (see "Getting cronbeat" in docs/cli.md)${job ? '; the command runs, unmonitored.' : '.'}`,
  );
  if (words && job) runJobAlone(words);
  process.exit(words ? 2 : 1);
}
