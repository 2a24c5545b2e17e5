import type { Command } from './command';
import { UsageError } from './command';
import { serveCommand } from './commands/serve';
import { tokenCommand } from './commands/token';
import { pingCommand } from './commands/ping';
import { runCommand } from './commands/run';
import { spoolCommand } from './commands/spool';
import { crontabCommand } from './commands/crontab';
import { backupCommand } from './commands/backup';
import { restoreCommand } from './commands/restore';

// Register new commands here, one line each.
const commands: Command[] = [serveCommand, tokenCommand, pingCommand, runCommand, spoolCommand, crontabCommand, backupCommand, restoreCommand];

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
    console.log(process.env.npm_package_version ?? '0.1.0');
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) throw new UsageError(`Unknown command "${name}". Run \`cronbeat --help\` to see the commands.`);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.help);
    return 0;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof UsageError;
    console.error(`cronbeat: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = usage ? error.exitCode : 1;
  },
);
