import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { closestTo } from '../didYouMean';
import { emptyOption, NOT_EMPTY } from '../parseOptions';
import { notOneWordIn } from '../../domain/text/controlCharacters';

/*
 * How `cronbeat run` tells its own words from the job's. The job must run exactly as written
 * whatever is wrong with ours, so this never throws: a mistake in our words is one sentence
 * (`mistake`), and the command is found even without `--`. Every option of ours takes a value
 * except --help/-h, so the first word that is neither one of ours nor a value of one starts the
 * command (with --name), or is the monitor's token and the command follows it (without).
 */

/** The options of `run`; each takes a value (`--name NAME` or `--name=NAME`). */
export const RUN_OPTIONS = ['url', 'data-dir', 'name', 'schedule', 'timezone', 'grace', 'max-runtime', 'alert-after', 'server', 'started-fd'] as const;
export type RunOption = (typeof RUN_OPTIONS)[number];

export interface RunWords {
  values: Partial<Record<RunOption, string>>;
  token?: string;
  /** The job's command line, exactly as written; empty when there is none. */
  command: string[];
  /** --help or -h among our words. */
  help: boolean;
  /** What is wrong with our words, in one sentence; the job runs anyway, unmonitored. */
  mistake?: string;
  /** When `command` is empty: what to write instead. */
  missing?: string;
}

/** Whether `word` names a program that can be started: an executable file by its path, or on PATH. */
export function canRun(word: string, path = process.env.PATH ?? ''): boolean {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (word === '' || word.startsWith('-')) return false;
  if (word.includes('/')) return executable(word);
  return path.split(delimiter).some((dir) => dir !== '' && executable(join(dir, word)));
}

/**
 * Why `word`, given where a monitor's token goes, is an API key (cb_…, agent/db/apiTokens.ts) —
 * most often the ping key a line is meant to use with --name — or undefined. Says only its
 * prefix: the key is a secret, and stderr ends up in cron's mail.
 */
export function apiKeyAsToken(word: string | undefined, command: 'run' | 'ping'): string | undefined {
  if (word === undefined || !word.startsWith('cb_')) return undefined;
  const byName = command === 'run' ? 'cronbeat run --name NAME --schedule CRON -- COMMAND' : 'cronbeat run --name NAME';
  return `"cb_…" is an API key (a ping key), not a monitor's token: put it in CRONBEAT_API_TOKEN and use \`${byName}\`, or give the monitor's own token (\`cronbeat monitor show NAME\`)`;
}

/**
 * Why `word`, given where a monitor's token goes, cannot be one: it holds a carriage return (a
 * token file written on Windows, read with `$(cat token.txt)`), a line break or a space, which the
 * agent's "404 Monitor not found" would not show. Undefined when it can be.
 */
export function tokenProblem(word: string | undefined): string | undefined {
  // The whole pulse URL, copied from the dashboard: the agent would only answer 404 for it.
  if (word !== undefined && URL_LIKE.test(word)) return 'the monitor token is a URL: give the token alone (the last part of the pulse URL), as `cronbeat monitor show` prints it';
  const found = word === undefined ? undefined : notOneWordIn(word);
  return found && `the monitor token holds ${found}, which no token has: give the token alone, as \`cronbeat monitor show\` prints it`;
}

/** A word that is a URL (`https://…`): never a program to start, nor a token. */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A monitor's pulse token: a UUID, as the agent makes them. */
const MONITOR_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isOption = (word: string) => word.startsWith('-') && word !== '-' && word !== '--';
const isOurs = (name: string): name is RunOption => (RUN_OPTIONS as readonly string[]).includes(name);

/**
 * Whether `word`, after our option `name`, is the job's program rather than the option's value:
 * the value was left out (`--timezone $TZ /usr/bin/backup` with TZ unset), and taken, the program
 * would be lost (the job skipped when it was the last word). No URL, schedule, zone, number,
 * folder or server identifier is a program; a name may be anything, so --name takes any word.
 */
function isProgramNotValue(name: RunOption, word: string, runs: (word: string) => boolean): boolean {
  if (name === 'name' || (name === 'server' && !word.includes('/'))) return false;
  return runs(word);
}

/**
 * The words of a `cronbeat` line whose options come before `run` (`cronbeat --url URL run TOKEN --
 * job`, as many tools take them), as run's own (`--url URL TOKEN -- job`), when the line holds a
 * job: it must run, as on any other mistake of our words. Null for any other line.
 */
export function optionsBeforeRun(argv: string[], runs: (word: string) => boolean = canRun): string[] | null {
  let i = 0;
  while (i < argv.length && isOption(argv[i])) i += argv[i].startsWith('--') && !argv[i].includes('=') && isOurs(argv[i].slice(2)) ? 2 : 1;
  if (i === 0 || argv[i] !== 'run') return null;
  const words = [...argv.slice(0, i), ...argv.slice(i + 1)];
  return readRunWords(words, runs).command.length > 0 ? words : null;
}

/**
 * Reads `cronbeat run`'s arguments; `runs` says whether a word starts a program (canRun). A `--`
 * is ours only while our words are read: once a word has started the command, a `--` after it is
 * the job's (`kubectl exec pod -- /backup.sh`, `git checkout -- file`), and taken for ours, what
 * followed it would run alone, elsewhere or without its program (env, nice and sudo read theirs so
 * too). A bare word in the token's place before a `--` is still the token, even one a program is
 * named like (`run "$TOKEN" -- job`).
 */
export function readRunWords(argv: string[], runs: (word: string) => boolean = canRun): RunWords {
  const separator = argv.indexOf('--');
  if (separator >= 0) {
    const { words, commandAt } = readWords(argv, -1, runs);
    const first = argv[commandAt] ?? '';
    const afterOurs = words.token !== undefined || words.values.name !== undefined || words.values.schedule !== undefined || first.includes('/');
    // As env, nice or sudo read theirs; but a monitor's token is no program's name (`run x TOKEN -- job`).
    if (commandAt >= 0 && commandAt < separator && afterOurs && !MONITOR_TOKEN.test(first)) return words;
  }
  return readWords(argv, separator, runs).words;
}

/** readRunWords with `separator` the index of our `--` (-1: none), and where the command starts without it (-1: not found so). */
function readWords(argv: string[], separator: number, runs: (word: string) => boolean): { words: RunWords; commandAt: number } {
  const own = separator >= 0 ? argv.slice(0, separator) : argv;
  const values: RunWords['values'] = {};
  const mistakes: string[] = [];
  const stray: string[] = [];
  let token: string | undefined;
  let help = false;
  let commandAt = -1;
  for (let i = 0; i < own.length; ) {
    const word = own[i];
    if (isOption(word)) {
      const equals = word.startsWith('--') ? word.indexOf('=') : -1;
      const flag = equals >= 0 ? word.slice(0, equals) : word;
      const inline = equals >= 0 ? word.slice(equals + 1) : undefined;
      const name = flag.replace(/^--?/, '');
      i++;
      if (flag === '--help' || flag === '-h') {
        help = true;
      } else if (flag.startsWith('--') && isOurs(name)) {
        if (inline !== undefined) values[name] = inline;
        else if (i < own.length && !(isOption(own[i]) && isOurs(own[i].replace(/^--/, '').split('=')[0])) && !(separator < 0 && isProgramNotValue(name, own[i], runs))) {
          values[name] = own[i++];
        } else mistakes.push(`${flag} needs a value`);
      } else {
        const close = closestTo(name, RUN_OPTIONS, 1);
        mistakes.push(`unknown option ${flag}${close.length ? ` (did you mean --${close[0]}?)` : ''}`);
        // A misspelt option of ours takes a value too, unless the next word is the command itself,
        // or the monitor's token still awaited: taken as a value, the job's program would become the token.
        const awaitedToken = token === undefined && values.name === undefined && values.schedule === undefined && MONITOR_TOKEN.test(own[i] ?? '');
        if (inline === undefined && i < own.length && !isOption(own[i]) && !awaitedToken && (separator >= 0 || !runs(own[i]))) i++;
      }
      continue;
    }
    const byLine = values.name !== undefined || values.schedule !== undefined;
    if (separator < 0 && (byLine || token !== undefined)) {
      commandAt = i;
      break;
    }
    if (token === undefined && !byLine) {
      // In the token's place, a program (`cronbeat run /bin/date`, `cronbeat run nice job.sh`) starts
      // the command: a token never holds a slash, and a monitor's token is a UUID, never a program's
      // name. A URL there is the pulse URL given whole for the token (a mistake said as one), not a program.
      if (separator < 0 && !URL_LIKE.test(word) && (word.includes('/') || (!MONITOR_TOKEN.test(word) && runs(word)))) {
        commandAt = i;
        break;
      }
      token = word;
    } else {
      stray.push(word);
    }
    i++;
  }
  // As every command refuses them (parseOptions.ts): left out, not empty, or the pulses go to the default agent.
  for (const name of RUN_OPTIONS) if (values[name] === '' && NOT_EMPTY.includes(name)) mistakes.push(emptyOption(`--${name}`).replace(/\.$/, ''));
  let command = separator >= 0 ? argv.slice(separator + 1) : commandAt >= 0 ? argv.slice(commandAt) : [];
  const byLine = values.name !== undefined || values.schedule !== undefined;
  // A monitor's token written after -- (`run -- TOKEN -- job`): no program is named like one, so
  // it is the token and the job follows it, rather than a command that cannot start.
  if (separator >= 0 && token === undefined && !byLine && command.length > 1 && MONITOR_TOKEN.test(command[0]) && !runs(command[0])) {
    token = command[0];
    command = command[1] === '--' ? command.slice(2) : command.slice(1);
  }
  if (byLine && token !== undefined) mistakes.push(`give either a monitor token or --name, not both ("${token}" and --name)`);
  const key = byLine ? undefined : (apiKeyAsToken(token, 'run') ?? tokenProblem(token));
  if (key !== undefined) mistakes.push(key);
  if (!byLine && !token) mistakes.push('give the monitor token (or --name) first: cronbeat run TOKEN -- COMMAND [ARGS...]');
  if (stray.length > 0) mistakes.push(`"${stray[0]}" is not an option of cronbeat run; put -- before the command`);
  const result: RunWords = { values, token, command, help };
  if (mistakes.length > 0) result.mistake = mistakes.join('; ');
  if (command.length === 0) {
    result.missing =
      byLine || token !== undefined
        ? `Give the command to run after --: cronbeat run ${byLine ? '--name NAME --schedule CRON' : 'TOKEN'} -- COMMAND [ARGS...]`
        : 'Give the monitor token (or --name and --schedule) and the command: cronbeat run TOKEN -- COMMAND [ARGS...]';
  }
  return { words: result, commandAt };
}
