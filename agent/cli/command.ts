import { writeSync } from 'node:fs';
import { format } from 'node:util';
import { controlCharacterIn, terminalText } from '../domain/text/controlCharacters';
import { closestTo, didYouMean } from './didYouMean';
import { describeError } from '../domain/text/errorText';

/** One `cronbeat` sub-command. Each lives in agent/cli/commands/<name>.ts and is listed in main.ts. */
export interface Command {
  name: string;
  /** One line for `cronbeat --help`. */
  summary: string;
  /** Full text for `cronbeat <name> --help`: usage, every option, and an example. */
  help: string;
  /** Runs with the arguments after the command name; resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
  /** The command tells its own --help from its arguments' (`cronbeat run` wraps jobs that have a --help of their own). */
  readsOwnHelp?: boolean;
  /** Its sub-commands (`crontab scan|discover|watch`), when its first word names one: a misspelt one is answered here. */
  subcommands?: readonly string[];
}

/** A mistake the user can fix: printed as one line on stderr, never with a stack trace. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * `value` of the option `option` when it has no control character (agent/domain/text/controlCharacters.ts),
 * else a usage error before anything is sent: names and identifiers are printed on terminals and in
 * popups, and the agent refuses them too.
 */
export function withoutControlCharacters<T extends string | undefined>(option: string, value: T): T {
  const found = value === undefined ? undefined : controlCharacterIn(value);
  if (found) throw new UsageError(`${option} must not contain control characters (it has ${found}).`);
  return value;
}

/** `raw`, the value of `option`, as a whole number from 1 to `max`; else a usage error naming the option. */
export function positiveInteger(raw: string, option: string, max: number): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new UsageError(`${option} must be a whole number from 1 to ${max}, not "${raw}".`);
  return Number(raw);
}

/**
 * Other words for our sub-commands, as other tools name them (`rm`, `add`): a sub-command missing
 * is answered with ours that means the same, before any merely spelt alike ("add" is not "hand").
 */
const SAME_MEANING: Readonly<Record<string, readonly string[]>> = {
  add: ['create', 'new', 'make'],
  create: ['add', 'new', 'make'],
  delete: ['remove', 'rm', 'del', 'destroy'],
  remove: ['delete', 'rm', 'del', 'destroy'],
  revoke: ['delete', 'remove', 'rm', 'del'],
  list: ['ls'],
  show: ['get', 'info', 'view', 'describe'],
  edit: ['update', 'set', 'change', 'modify'],
};

/** Ours that `typed` means (SAME_MEANING), else those spelt like it, as " Did you mean …?"; "" when none. */
function subcommandMeant(typed: string, subcommands: readonly string[]): string {
  const meant = subcommands.filter((ours) => SAME_MEANING[ours]?.includes(typed.toLowerCase()));
  return meant.length > 0 ? didYouMean(meant[0], meant) : didYouMean(typed, subcommands);
}

/** Runs `command` with the arguments after its name, or prints its help when asked for before any `--`. */
export function invoke(command: Command, rest: string[]): Promise<number> {
  // What follows `--` is a job's own command line (`cronbeat run T -- mysqldump -h db`), never ours.
  if (command.readsOwnHelp) return command.run(rest);
  const ownArgs = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (ownArgs.includes('--help') || ownArgs.includes('-h')) {
    console.log(command.help);
    return Promise.resolve(0);
  }
  const [first] = rest;
  if (command.subcommands && first !== undefined && !first.startsWith('-') && !command.subcommands.includes(first)) {
    const close = subcommandMeant(first, command.subcommands);
    return Promise.reject(
      new UsageError(`"${first}" is not a sub-command of cronbeat ${command.name} (${command.subcommands.join(', ')}).${close || ` See \`cronbeat ${command.name} --help\`.`}`),
    );
  }
  return command.run(rest).catch((error: unknown) => {
    throw inOurWords(error, command, first !== undefined && command.subcommands?.includes(first) ? `${command.name} ${first}` : command.name);
  });
}

/** The options a misspelt one is measured against: those its parser knew (parseOptions.ts), else those its help names. */
function optionsOf(error: unknown, command: Pick<Command, 'help'>): string[] {
  const known = (error as { known?: unknown }).known;
  if (Array.isArray(known)) return known.map(String);
  return [...new Set((command.help.match(/--[a-z][a-z0-9-]*/g) ?? []).map((option) => option.slice(2)))];
}

/**
 * node:util parseArgs's mistakes (every command's options go through parseOptions.ts), told in our words
 * with the option it is closest to; anything else unchanged. `service install` tells serve's flags
 * after its `--` this way too, so a flag is refused there in the words serve itself would use.
 */
export function inOurWords(error: unknown, command: Pick<Command, 'name' | 'help'>, said: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  const help = ` See \`cronbeat ${command.name} --help\`.`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message;
    const name = option.split('=')[0];
    const close = closestTo(name.replace(/^-+/, ''), optionsOf(error, command));
    const suggestion = close.length > 0 ? ` Did you mean ${close.map((o) => `--${o}`).join(' or ')}?` : help;
    return new UsageError(`cronbeat ${said} has no option ${name}.${suggestion}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = /'(-[^ ']+)/.exec(message)?.[1];
    if (option && /argument missing/.test(message)) return new UsageError(`${option} needs a value: ${option} VALUE (or ${option}=VALUE).`);
    // A value that starts with "-" (--max-monitors -5) is read as another option unless joined by "=".
    if (option && /ambiguous/.test(message)) return new UsageError(`${option} needs a value; one that starts with "-" goes as ${option}=VALUE.`);
    if (option) return new UsageError(`${option} takes no value.${help}`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']*)'/.exec(message)?.[1] ?? '';
    // Commands that take a schedule read their own words (and say to quote one); here, a word none takes.
    return new UsageError(`cronbeat ${said} takes no "${word}".${help}`);
  }
  return sqliteAddonProblem(message) ?? error;
}

/**
 * better-sqlite3's native addon missing (an install that could not compile it, a clone after an
 * offline `npm run dist`) or built for another Node, in one line saying how to rebuild it, instead of
 * the list of every path the bindings package tried.
 */
function sqliteAddonProblem(message: string): UsageError | null {
  const missing = message.startsWith('Could not locate the bindings file');
  const otherNode = /NODE_MODULE_VERSION/.test(message);
  if ((!missing && !otherNode) || !/better[-_]sqlite3/.test(message)) return null;
  const installed = /(\/\S*?)\/node_modules\/better-sqlite3\//.exec(message)?.[1];
  return new UsageError(
    `better-sqlite3's native addon is ${missing ? 'missing' : 'built for another version of Node'}, so Cronbeat cannot open its database. ` +
      `Rebuild it: ${installed ? `cd ${installed} && ` : ''}npm rebuild better-sqlite3 (where no prebuilt one can be fetched, this compiles it and needs python3, make and a C++ compiler).`,
    1,
  );
}

/** Runs a CLI's main with this process's arguments: its result is the exit status, an error one line on stderr. */
export function runMain(main: (argv: string[]) => Promise<number>): void {
  printSafely();
  // Node's default for SIGUSR1 opens its debugger on 127.0.0.1:9229 to every local user, in a
  // process that often runs as root (a unit's ping, a crontab watcher, serve): an admin's `pkill
  // -USR1 -f …` or `systemctl kill -s USR1` must not hand it out. A listener replaces that default.
  process.on('SIGUSR1', () => {});
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // Unless the command handles it itself: `cronbeat run` keeps reading its job's output (the
    // job must not die of our output going nowhere) and ends with the job's status.
    if (process.stdout.listenerCount('error') > 1) return;
    // A reader that went away (`cronbeat … | head -n 3`) is the ordinary end of a pipe, not a crash:
    // stop quietly, as cat and grep do.
    if (error.code === 'EPIPE') process.exit(0);
    // A file on a full disk, a terminal gone: what was asked for was not all written, so say so, as cat does.
    try {
      writeSync(2, `cronbeat: cannot write to standard output: ${terminalText(describeError(error), { oneLine: true })}\n`);
    } catch {
      // stderr cannot be written either: the exit status says it
    }
    process.exit(1);
  });
  // Nothing can be said where nothing can be written (stderr on a full disk): the exit status still tells.
  process.stderr.on('error', () => {});
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`cronbeat: ${describeError(error)}`);
      process.exitCode = exitCodeFor(error);
    },
  );
}

/** 2 for a mistake in the command line (ours or node:util parseArgs's), else the error's own or 1. */
function exitCodeFor(error: unknown): number {
  // By name, not instanceof: the commands of dist/cronbeat-full.cjs have their own copy of the class.
  if (error instanceof Error && error.name === 'UsageError') return (error as UsageError).exitCode;
  const code = (error as { code?: string } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_') ? 2 : 1;
}

/**
 * Everything the CLI prints goes through console.log and console.error; most of it comes from
 * elsewhere (names, messages and answers of an agent that may be hostile, a job's output in the
 * spool), so this is the one place control characters are written out (terminalText) before they
 * reach a terminal, where ESC or BEL would act instead of being read. A job's own output that
 * `cronbeat run` passes through is written to the streams directly and stays byte for byte.
 */
function printSafely(): void {
  const to = (stream: NodeJS.WriteStream) => (...args: unknown[]) => {
    try {
      stream.write(`${terminalText(format(...args))}\n`);
    } catch (error) {
      // A file is written synchronously, so a full disk throws here rather than emitting: handled as one (runMain).
      stream.emit('error', error);
    }
  };
  console.log = to(process.stdout);
  console.info = to(process.stdout);
  console.error = to(process.stderr);
  console.warn = to(process.stderr);
}
