import { invoke, runMain, UsageError, type Command } from './command';
import { pingCommand } from './commands/ping';
import { runCommand } from './commands/run';
import { version } from '../../package.json';

/*
 * The job runner alone: `cronbeat run` and `cronbeat ping`, bundled with everything they use
 * into one file (dist/cronbeat-run.cjs, no node_modules needed). `crontab discover` copies it to a
 * stable folder beside a fail-open shim, so a crontab line never depends on where the full
 * cronbeat was installed (an npx cache, a home folder the job's user cannot read).
 */

const commands: Command[] = [runCommand, pingCommand];

async function main([name, ...rest]: string[]): Promise<number> {
  if (name === '--version' || name === '-v') {
    console.log(version);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) throw new UsageError(`This is Cronbeat's job runner: it knows only \`run\` and \`ping\`, not "${name ?? ''}".`);
  return invoke(command, rest);
}

runMain(main);
