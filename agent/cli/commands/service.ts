import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from '../parseOptions';
import { resolveDataDir } from '../../dataFolder/dataDir';
import { terminalText } from '../../domain/text/controlCharacters';
import { replaceFile } from '../service/replaceFile';
import { inOurWords, UsageError, withoutControlCharacters, type Command } from '../command';
import { commandLine, servicePlace, type ServicePlace } from '../service/plan';
import { UnitValueError, type ServiceScope } from '../service/units';
import { localUrlOf, parseServeFlags } from '../serveFlags';
import { refuseRootThroughSudo, refuseUnknownUser, refuseUnreachableProgram, refuseVanishingProgram, SYSTEM_DATA_DIR, systemDataFolder, systemUser } from '../service/checks';
import { readServiceRecord, removeServiceRecord, writeServiceRecord } from '../service/serviceRecord';

const help = `Usage: cronbeat service <install|uninstall|status> [--user | --system] [options] [-- SERVE FLAGS]

Runs the agent (\`cronbeat serve\`) as a service that starts at boot or login and is restarted
when it fails: a systemd unit on Linux, a launchd agent on macOS. For an always-on machine that
watches your servers while the laptop is shut (docs/deploy.md).

  cronbeat service install [--user|--system] [-- --host 0.0.0.0 --allow-host backup-box]
      Writes the unit, enables it and (re)starts it (systemctl enable, restart; launchctl bootstrap). Flags after
      -- are passed to \`cronbeat serve\`. Where systemctl or launchctl cannot be used, the
      file is still written and the commands to run are printed.
  cronbeat service uninstall [--user|--system]
      Stops and disables it and removes the file. The data folder is kept.
  cronbeat service status [--user|--system]
      Whether it is installed, the service manager's view, and whether the agent answers.

Options:
  --user          a service of your user (the default): ~/.config/systemd/user, logs in
                  \`journalctl --user -u cronbeat\`; lingering is turned on so it runs while
                  you are logged out
  --system        a system service (run with sudo): /etc/systemd/system, running as
                  --run-as (default: the user who ran sudo), never as root
  --data-dir DIR  the agent's data folder (default: as \`cronbeat serve\`; ${SYSTEM_DATA_DIR}
                  for --system)
  --run-as USER   the user a system service runs as
  --unit-dir DIR  write the file here instead of the service manager's folder

Exit status: 0 done; 1 the file was written but the service manager could not be used (the
message says what to run), or the agent does not answer (status); 2 wrong usage.

Examples:
  cronbeat service install
  sudo cronbeat service install --system --run-as cronbeat -- --host 0.0.0.0 --trust-proxy`;

interface Parsed {
  action: string;
  scope: ServiceScope;
  dataDir: string;
  runAs?: string;
  unitDir?: string;
  serveFlags: string[];
}

function parse(argv: string[]): Parsed {
  const own = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const serveFlags = argv.includes('--') ? argv.slice(argv.indexOf('--') + 1) : [];
  const { values, positionals } = parseArgs({
    args: own,
    allowPositionals: true,
    options: {
      user: { type: 'boolean', default: false },
      system: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      'run-as': { type: 'string' },
      'unit-dir': { type: 'string' },
    },
  });
  const [action, extra] = positionals;
  if (!action || !['install', 'uninstall', 'status'].includes(action)) {
    throw new UsageError(`Say what to do: \`cronbeat service install|uninstall|status\`${action ? `, not "${action}"` : ''}.`);
  }
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
  if (values.user && values.system) throw new UsageError('Choose one of --user and --system.');
  if (serveFlags.some((flag) => /^--data-dir(=|$)/.test(flag))) throw new UsageError('Give the data folder as `cronbeat service install --data-dir DIR`, before the --.');
  // Each goes into the unit or the property list, where a line break would start a directive of its own.
  for (const option of ['data-dir', 'run-as', 'unit-dir'] as const) withoutControlCharacters(`--${option}`, values[option]);
  for (const flag of serveFlags) withoutControlCharacters('A flag after --', flag);
  const scope: ServiceScope = values.system ? 'system' : 'user';
  // Dropped in silence, the user asked for would become whoever typed the line: root, under sudo.
  if (values['run-as'] !== undefined && scope !== 'system') {
    throw new UsageError(`--run-as is the user a system service runs as: add --system (sudo cronbeat service ${action} --system --run-as ${values['run-as']}); a --user service runs as you.`);
  }
  const dataDir = resolve(values['data-dir'] ?? (scope === 'system' ? SYSTEM_DATA_DIR : resolveDataDir({ env: process.env, platform: process.platform, home: homedir() })));
  return { action, scope, dataDir, runAs: values['run-as'], unitDir: values['unit-dir'], serveFlags };
}

/** Runs each command in turn; returns the ones that could not be run (from the first failure on) and why. */
function runAll(commands: string[][]): { failed: string[][]; reason: string } {
  for (let i = 0; i < commands.length; i++) {
    const [program, ...args] = commands[i];
    const result = spawnSync(program, args, { encoding: 'utf8' });
    if (result.error || result.status !== 0) {
      const reason =
        (result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT'
          ? `${program} was not found on this machine`
          : `\`${commandLine(commands[i])}\` failed: ${(result.stderr || result.stdout || String(result.error)).trim().split('\n')[0].replace(/\.+$/, '')}`;
      return { failed: commands.slice(i), reason };
    }
  }
  return { failed: [], reason: '' };
}

function placeFor(parsed: Parsed): ServicePlace {
  const bundle = realpathSync(process.argv[1]);
  const command = [process.execPath, bundle, 'serve', '--data-dir', parsed.dataDir, ...parsed.serveFlags];
  const user = parsed.scope === 'system' ? systemUser(parsed.runAs) : undefined;
  const logFile = process.platform === 'darwin' ? join(parsed.scope === 'system' ? '/Library/Logs' : join(homedir(), 'Library', 'Logs'), 'Cronbeat', 'agent.log') : undefined;
  try {
    return servicePlace({
      platform: process.platform,
      scope: parsed.scope,
      spec: { scope: parsed.scope, command, dataDir: parsed.dataDir, user, logFile },
      env: process.env,
      unitDir: parsed.unitDir,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, error instanceof UnitValueError ? 2 : 1);
  }
}

/** Where this machine will reach the service's agent: serve's flags, read as serve reads them (a flag serve would refuse is refused now). */
function agentUrl(serveFlags: string[]): string | null {
  let flags;
  try {
    flags = parseServeFlags(serveFlags);
  } catch (error) {
    const said = inOurWords(error, { name: 'serve', help: '' }, 'serve');
    if (said instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(`The flags after -- are \`cronbeat serve\`'s, and it would refuse them: ${(said as Error).message}`);
    }
    throw error;
  }
  return flags.port === 0 ? null : localUrlOf(flags.host, flags.port);
}

/** Runs `change` to the service's file; a folder this user may not write (a system one without sudo) is said in one line. */
function withRights(doing: string, file: string, change: () => void): void {
  try {
    change();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new UsageError(`${doing} ${file}: the disk is full (${code}); the service was left as it was.`, 1);
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    throw new UsageError(`${doing} ${file} needs more rights than this user has (permission denied): run it with sudo.`, 1);
  }
}

function install(parsed: Parsed): number {
  const url = agentUrl(parsed.serveFlags);
  refuseVanishingProgram();
  if (parsed.scope === 'system') {
    refuseUnknownUser(systemUser(parsed.runAs));
    refuseUnreachableProgram(systemUser(parsed.runAs));
  } else refuseRootThroughSudo();
  const place = placeFor(parsed);
  withRights('Writing', place.file, () => {
    mkdirSync(dirname(place.file), { recursive: true });
    replaceFile(place.file, place.text, 0o644);
    writeServiceRecord(place.record, { url });
  });
  console.log(`Wrote ${place.file}`);
  if (parsed.scope === 'system' && !parsed.dataDir.startsWith('/var/lib/')) systemDataFolder(parsed.dataDir, systemUser(parsed.runAs));
  for (const [program, ...args] of place.replace) spawnSync(program, args, { stdio: 'ignore' });
  const { failed, reason } = runAll(place.enable);
  if (failed.length === 1 && failed[0][0] === 'loginctl') {
    // Everything else was done: the agent runs. Lingering needs an admin over SSH, where loginctl cannot ask.
    const user = failed[0][failed[0].length - 1];
    console.error(`cronbeat: the service runs, but it stops when ${user} logs out: ${reason}. Run:`);
    console.error(`  sudo ${commandLine(failed[0])}`);
    return 1;
  }
  if (failed.length > 0) {
    console.error(`cronbeat: the service is not enabled: ${reason}. On a machine with ${place.manager}, run:`);
    for (const command of failed) console.error(`  ${commandLine(command)}`);
    return 1;
  }
  console.log(`Enabled: the agent runs now and at every ${parsed.scope === 'system' ? 'boot' : 'login'}, restarted if it fails. Logs: ${place.logs}`);
  return 0;
}

function uninstall(parsed: Parsed): number {
  const place = placeFor(parsed);
  const { failed, reason } = existsSync(place.file) ? runAll(place.disable) : { failed: [], reason: '' };
  withRights('Removing', place.file, () => {
    rmSync(place.file, { force: true });
    removeServiceRecord(place.record);
  });
  console.log(`Removed ${place.file} (the data folder ${parsed.dataDir} is kept)`);
  if (failed.length > 0) {
    console.error(`cronbeat: could not stop the service: ${reason}. Run:`);
    for (const command of failed) console.error(`  ${commandLine(command)}`);
    return 1;
  }
  return 0;
}

async function status(parsed: Parsed): Promise<number> {
  const place = placeFor(parsed);
  if (!existsSync(place.file)) {
    console.log(`Not installed (no ${place.file}). Install it with \`cronbeat service install${parsed.scope === 'system' ? ' --system' : ''}\`.`);
    return 1;
  }
  console.log(`Installed: ${place.file}`);
  for (const [program, ...args] of place.status) {
    const result = spawnSync(program, args, { encoding: 'utf8' });
    if (result.error) console.log(`(${program} was not found: the service manager cannot be asked here)`);
    else process.stdout.write(terminalText(result.stdout || result.stderr));
  }
  const record = readServiceRecord(place.record);
  if (record?.url === null) {
    console.log('The agent picks its port at each start (--port 0): see the logs for where it listens.');
    return 0;
  }
  // A service installed before the record was kept: serve's default address.
  if (!record) console.log(`(installed by an older cronbeat: checking serve's default address; install it again to check its own)`);
  const url = `${record?.url ?? localUrlOf('127.0.0.1', 8787)}/api/health`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    console.log(`${url}: ${response.status} ${await response.text()}`);
    return response.ok ? 0 : 1;
  } catch {
    console.log(`${url}: no answer. Logs: ${place.logs}`);
    return 1;
  }
}

export const serviceCommand: Command = {
  name: 'service',
  subcommands: ['install', 'uninstall', 'status'],
  summary: 'Install, remove or check the agent as a service (systemd, launchd)',
  help,
  async run(argv) {
    const parsed = parse(argv);
    if (parsed.action === 'install') return install(parsed);
    if (parsed.action === 'uninstall') return uninstall(parsed);
    return status(parsed);
  },
};
