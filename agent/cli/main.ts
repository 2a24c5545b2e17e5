// First: on a Node too old for the rest of this file, it says so and runs `run`'s job, and nothing below starts.
import './oldNode';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from './command';
import { invoke, runMain, UsageError } from './command';
import { closestTo, didYouMean } from './didYouMean';
import { printNotices } from './notices';
import { optionsBeforeRun, readRunWords } from './run/runWords';
import { runCommand } from './commands/run';
import { version } from '../../package.json';
import { describeError } from '../domain/text/errorText';

/*
 * dist/cronbeat.cjs, the file users copy to servers: the job side (`run`, `ping`, `spool`),
 * bundled with everything it uses, so it needs nothing but Node. `run` loads no more than it
 * needs to start the job; `ping` and `spool` load when called. Every other command lives in
 * dist/cronbeat-full.cjs beside it (full.ts), loaded only for them.
 */

/** The job side, by name. */
const JOB_SIDE: Record<string, () => Promise<Command>> = {
  ping: async () => (await import('./commands/ping')).pingCommand,
  run: () => Promise.resolve(runCommand),
  spool: async () => (await import('./commands/spool')).spoolCommand,
};

export const FULL_CLI_FILE = 'cronbeat-full.cjs';

/**
 * The commands of dist/cronbeat-full.cjs, or why they cannot be loaded (this file was copied alone).
 * node:module is loaded here, not as this file starts: `run` never needs it.
 */
async function fullCommands(): Promise<Command[] | string> {
  const file = join(__dirname, FULL_CLI_FILE);
  const rest = 'This file alone runs only `run`, `ping` and `spool`; the other commands need the whole package (see "Getting cronbeat" in docs/cli.md).';
  if (!existsSync(file)) return `${file} is not beside this file. ${rest}`;
  try {
    const { createRequire } = await import('node:module');
    const { commands } = createRequire(__filename)(file) as { commands?: Command[] };
    // A copy cut short can still parse, and load without its exports.
    if (!Array.isArray(commands)) return `${file} cannot be loaded (it holds no commands: a damaged or partial copy). ${rest}`;
    return commands;
  } catch (error) {
    return `${file} cannot be loaded (${describeError(error).split('\n')[0]}). ${rest}`;
  }
}

async function overview(): Promise<string> {
  const jobSide = await Promise.all(Object.values(JOB_SIDE).map((load) => load()));
  const full = await fullCommands();
  const commands = typeof full === 'string' ? jobSide : [...full.slice(0, 2), ...jobSide, ...full.slice(2)];
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: cronbeat <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `cronbeat <command> --help` for the options of a command.',
    ...(typeof full === 'string' ? ['', `The other commands are not here: ${full}`] : []),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // Options before `run` (`cronbeat --url URL run TOKEN -- job`) in a line that holds a job: the
  // job must run as written, whatever is wrong with our words (`-v` printed the version instead).
  const optionsFirst = name?.startsWith('-') ? optionsBeforeRun(argv) : null;
  if (optionsFirst) {
    printNotices([`options go after the command (\`cronbeat run ${name} …\`); this line is read so, and its job runs`]);
    return invoke(runCommand, optionsFirst);
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await overview());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    console.log(version);
    return 0;
  }
  if (name.startsWith('-')) {
    const close = didYouMean(name, ['--help', '--version'], false);
    throw new UsageError(`cronbeat has no option ${name}.${close || ` Options go after the command: \`cronbeat <command> ${name} …\` (see \`cronbeat --help\`).`}`);
  }
  const jobSide = Object.hasOwn(JOB_SIDE, name) ? JOB_SIDE[name] : undefined;
  if (jobSide) return invoke(await jobSide(), rest);
  const full = await fullCommands();
  const names = [...Object.keys(JOB_SIDE), ...(typeof full === 'string' ? [] : full.map((c) => c.name))];
  // A misspelt `run` (`cronbeat runn TOKEN -- backup.sh`) in a crontab is still a run line: its job
  // must run as written, as on any other mistake of our words, and the mistake is said in one line.
  if (!names.includes(name) && closestTo(name, names).join() === 'run' && readRunWords(rest).command.length > 0) {
    printNotices([`"${name}" is no command; this line is read as \`cronbeat run\`, so that its job runs`]);
    return invoke(runCommand, rest);
  }
  if (typeof full === 'string') throw new UsageError(`"${name}" is not here: ${full}`, 1);
  const command = full.find((c) => c.name === name);
  if (!command) {
    const close = didYouMean(name, names);
    throw new UsageError(`Unknown command "${name}".${close || ' Run `cronbeat --help` to see the commands.'}`);
  }
  return invoke(command, rest);
}

runMain(main);
