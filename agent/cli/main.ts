import type { Command } from './command';
import { invoke, runMain, UsageError } from './command';
import { didYouMean } from './didYouMean';
import { serveCommand } from './commands/serve';
import { tokenCommand } from './commands/token';
import { pingCommand } from './commands/ping';
import { runCommand } from './commands/run';
import { spoolCommand } from './commands/spool';
import { crontabCommand } from './commands/crontab';
import { backupCommand } from './commands/backup';
import { restoreCommand } from './commands/restore';
import { monitorCommand } from './commands/monitor';
import { notificationsCommand } from './commands/notifications';
import { serviceCommand } from './commands/service';
import { maintenanceCommand } from './commands/maintenance';
import { version } from '../../package.json';

// Register new commands here, one line each.
const commands: Command[] = [serveCommand, tokenCommand, pingCommand, runCommand, spoolCommand, crontabCommand, backupCommand, restoreCommand, monitorCommand, maintenanceCommand, notificationsCommand, serviceCommand];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: cronbeat <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `cronbeat <command> --help` for the options of a command.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(overview());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    console.log(version);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const close = didYouMean(name, commands.map((c) => c.name));
    throw new UsageError(`Unknown command "${name}".${close || ' Run `cronbeat --help` to see the commands.'}`);
  }
  return invoke(command, rest);
}

runMain(main);
