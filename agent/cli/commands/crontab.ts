import { parseArgs } from '../parseOptions';
import { apiKeyOf } from '../apiKey';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiClient, ApiError } from '../../client/connection/api';
import { DEFAULT_BASE_URL } from '../../client/connection/baseUrl';
import { prepareDataDir } from '../../dataFolder/dataDir';
import { positiveInteger, UsageError, withoutControlCharacters, type Command } from '../command';
import type { JobRow } from '../crontab/jobs';
import { CrontabReadError, fileSource, machineSources, userCrontabSource, type CrontabSource } from '../crontab/sources';
import { cut, printable, printTable, wrapped } from '../crontab/table';
import { baseUrlOption } from './ping';
import { machineZone } from '../machineZone';
import { MAX_MINUTES } from '../../domain/monitors/minutes';

const help = `Usage: cronbeat crontab <scan|discover|watch> [options]

Finds the cron jobs of this machine, puts them under monitoring, and watches for changes.

  cronbeat crontab scan [--file PATH ...] [--run-parts DIR ...] [--json]
      Lists the cron jobs: the user's crontab (crontab -l), /etc/crontab and /etc/cron.d/*
      (with their user column) and the scripts run-parts runs (/etc/cron.hourly, daily, weekly,
      monthly), or the files and folders given. Secrets in commands are shown as ***.
      The table fits 100 columns (long commands cut with …; --json has them whole).
  cronbeat crontab discover [--file PATH] [--dry-run] [--grace MIN] [--shim-dir DIR] [--url URL] [--token API_TOKEN]
      Creates one monitor per job (name from the command with secrets masked, schedule from
      the line, zone from CRON_TZ or this machine's, grace from the schedule) and rewrites each
      line to run through Cronbeat's entry point, failing open:
        set -- JOB; [ -r SHIM ] && [ -x SHIM ] && exec SHIM run TOKEN -- "$@"; exec "$@"
      SHIM is a small script installed in a stable folder (/usr/local/lib/cronbeat for root,
      ~/.local/lib/cronbeat for others) with a self-contained copy of the job runner, so a line
      never points into an npx cache. If the script is gone or unreadable, or Cronbeat cannot
      start, the job runs directly: once, with its own exit status. A backup of the original is
      kept next to it (for crontab -l, in the data folder). Jobs already run through cronbeat are
      skipped (lines of an older discover are moved to the entry point), so a second run changes
      nothing; @reboot jobs have no schedule and are left alone, as are lines cron does not run as
      written (a CR at the end, a last line without newline) or would cut once wrapped (999 bytes).
  cronbeat crontab discover --by-name [--file PATH] [--dry-run] [--shim-dir DIR] [--url URL]
      The same lines, but each names its monitor by the slug of its command (run --name=SLUG)
      instead of carrying a token: no monitor is made now, each line makes its own at its first
      run, from its own schedule and CRON_TZ, read again at every run, so editing the schedule
      in the crontab is all it takes to change the monitor. A new ping key goes once into the
      crontab as CRONBEAT_API_TOKEN=… (unless it sets one): nothing is copied by hand.
  cronbeat crontab discover --undo [--delete-monitors] [--file PATH] [--dry-run]
      Puts back the command of every line discover rewrote (after a backup); with
      --delete-monitors it then deletes the monitors those lines pinged, else they are kept,
      and a later discover of the same lines (same crontab, user, schedule, CRON_TZ and
      command) takes them again instead of making new ones (see docs/cli.md).
  cronbeat crontab watch --server IDENTIFIER [--interval 60] [--once] [--file PATH ...]
                         [--run-parts DIR ...] [--url URL]
      Alerts the API (POST /api/servers/alert) when a cron job's line is added, removed or
      altered, once per change, and so for the scripts run-parts runs (/etc/cron.hourly, daily,
      weekly, monthly). Keeps its snapshot in the data folder, so a restart raises
      nothing new; alerts wait on disk and are retried while the API cannot be reached.
      Checks the server identifier and the token at start, and reports with every snapshot
      (POST /api/servers/heartbeat), so the dashboard shows a watcher that went quiet.

Options:
  --file PATH         a crontab file (repeatable); /etc/crontab and /etc/cron.d/* have a user column
  --system-file PATH  a crontab file in system format (with a user column), wherever it is
  --run-parts DIR     scan, watch: a folder run-parts runs, listed or watched instead of
                      /etc/cron.hourly and its like (repeatable)
  --json              scan: print JSON instead of a table
  --dry-run           discover: show what would be created and the exact lines; change nothing
  --grace MIN         discover: the grace (the API's \`duration\`), minutes after each scheduled
                      run within which the job must report (default: the schedule's own
                      period, at most 60: 5 for */5 * * * *, 60 for a daily job)
  --shim-dir DIR      discover: where the entry point goes (default: $CRONBEAT_SHIM_DIR, else as
                      above); never a temporary folder or a package cache
  --undo              discover: put the original commands back
  --delete-monitors   discover --undo: delete the monitors of the lines put back (needs a full key)
  --by-name           discover: lines that make and keep their own monitors (see above)
  --server ID         watch: the server's identifier, as created with POST /api/servers
  --interval SEC      watch: seconds between snapshots (default 60); with --once, how often cron
                      or a timer starts it, so the dashboard knows when the watcher is quiet
                      (left out, a --once run learns it from the runs before it)
  --once              watch: take one snapshot, deliver alerts, and exit (for a cron job or a timer)
  --url URL           the agent (default: $CRONBEAT_URL, else ${DEFAULT_BASE_URL})
  --token API_TOKEN   discover, watch: an API token; better, set CRONBEAT_API_TOKEN so it does not
                      show in the process list or in logs
  --data-dir DIR      where backups of crontab -l and the watch snapshot live

Exit status: 0 done, 1 the API refused or could not be reached (watch --once: alerts still
waiting; they are sent next time) or refused the token, 2 wrong usage (watch: no server has
the --server identifier).

Examples:
  cronbeat crontab scan
  export CRONBEAT_API_TOKEN=$(cronbeat token create --name laptop)
  cronbeat crontab discover --dry-run && cronbeat crontab discover
  cronbeat crontab discover --undo
  sudo CRONBEAT_API_TOKEN=... cronbeat crontab watch --server web-1 --url http://10.0.0.5:8787`;

function apiToken(flag: string | undefined): string {
  const token = apiKeyOf(flag);
  if (!token) throw new UsageError('An API token is needed: set CRONBEAT_API_TOKEN (make one with `cronbeat token create`) or pass --token.');
  return token;
}

/** The self-contained job side, dist/cronbeat.cjs: the file this command was started by (main.ts). */
function runnerSource(): string {
  // The real file: npx and npm link start the CLI through a symlink in a .bin folder.
  return realpathSync(process.argv[1]);
}

export const crontabCommand: Command = {
  name: 'crontab',
  subcommands: ['scan', 'discover', 'watch'],
  summary: 'Scan, discover (monitor) and watch the cron jobs of this machine',
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        file: { type: 'string', multiple: true },
        'system-file': { type: 'string', multiple: true },
        'run-parts': { type: 'string', multiple: true },
        json: { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        grace: { type: 'string' },
        // The old name of --grace, still taken; help no longer lists it.
        duration: { type: 'string' },
        'by-name': { type: 'boolean' },
        'shim-dir': { type: 'string' },
        undo: { type: 'boolean' },
        'delete-monitors': { type: 'boolean' },
        server: { type: 'string' },
        interval: { type: 'string' },
        once: { type: 'boolean' },
        url: { type: 'string' },
        token: { type: 'string' },
        'data-dir': { type: 'string' },
      },
    });
    const [action, extra] = positionals;
    if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
    const files: CrontabSource[] = [...(values.file ?? []).map((path) => fileSource(path)), ...(values['system-file'] ?? []).map((path) => fileSource(path, 'system'))];
    // Loaded here, not at the top: cron parsing would slow the start of every other command (cronbeat run).
    const [{ discover, undoDiscover }, jobs, { defaultShimDir, planShim, ShimError }, { watch }, { debianRunParts, runPartsScripts, RUN_PARTS_FOLDERS }] = await Promise.all([
      import('../crontab/discover'),
      import('../crontab/jobs'),
      import('../crontab/shim'),
      import('../crontab/watch'),
      import('../crontab/runParts'),
    ]);
    const runPartsGiven = (values['run-parts'] ?? []).map((folder) => resolve(folder));
    for (const folder of action === 'scan' || action === 'watch' ? runPartsGiven : []) {
      if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--run-parts ${folder}: no such folder.`);
    }
    // Files or folders given are read instead of the machine's.
    const given = files.length > 0 || runPartsGiven.length > 0;
    const runParts = { folders: given ? runPartsGiven : RUN_PARTS_FOLDERS, debian: debianRunParts() };

    try {
      if (action === 'scan') {
        const scripts = (folder: string) => jobs.runPartsRows(folder, runPartsScripts(folder, runParts.debian) ?? []);
        return scan(given ? files : machineSources(), given, values.json ?? false, jobs, runParts.folders.map((folder) => () => scripts(folder)));
      }
      if (action === 'discover') {
        if (files.length > 1) throw new UsageError('discover works on one crontab at a time: give one --file.');
        const source = files[0] ?? userCrontabSource();
        const dryRun = values['dry-run'] ?? false;
        if (values['delete-monitors'] && !values.undo) throw new UsageError('--delete-monitors goes with --undo: cronbeat crontab discover --undo --delete-monitors.');
        // A crontab -l that is not there is a user without one; a file named by hand is a typo.
        if (source.path && !existsSync(source.path)) throw new UsageError(`${source.path}: no such file.`);
        if (values.undo) {
          const deleting = values['delete-monitors'] ?? false;
          // The key is checked before the crontab changes: a missing one must not leave lines put back and monitors failing.
          const api = deleting && !dryRun ? new ApiClient(baseUrlOption(values.url), apiToken(values.token)) : null;
          const undone = undoDiscover({ source, dryRun, dataDir: prepareDataDir(values['data-dir']), now: new Date(), deleting });
          if (api === null || undone.tokens.length === 0) return undone.code;
          const { deleteDiscoveredMonitors } = await import('../crontab/deleteMonitors');
          return await deleteDiscoveredMonitors(api, undone.tokens);
        }
        if (values.grace !== undefined && values.duration !== undefined) throw new UsageError('Give --grace once (--duration is its old name).');
        const grace = values.grace ?? values.duration;
        const duration = grace === undefined ? null : positiveInteger(grace, '--grace', MAX_MINUTES);
        const baseUrl = baseUrlOption(values.url);
        const shimDir = values['shim-dir'] ?? process.env.CRONBEAT_SHIM_DIR ?? defaultShimDir(process.getuid?.() ?? 0);
        let shim;
        try {
          shim = planShim(shimDir);
        } catch (error) {
          if (error instanceof ShimError) throw new UsageError(error.message);
          throw error;
        }
        if (values['by-name'] && duration !== null) {
          throw new UsageError('--by-name lines take their schedule\'s own grace; add --grace MIN to a line by hand for another.');
        }
        const token = dryRun ? undefined : apiToken(values.token);
        const run = values['by-name'] ? (await import('../crontab/discoverByName')).discoverByName : discover;
        return await run({
          source,
          dryRun,
          duration,
          apiToken: token,
          api: token === undefined ? null : new ApiClient(baseUrl, token),
          shim,
          runnerSource: runnerSource(),
          url: baseUrl === DEFAULT_BASE_URL ? null : baseUrl,
          machineZone: machineZone(),
          dataDir: prepareDataDir(values['data-dir']),
          now: new Date(),
        });
      }
      if (action === 'watch') {
        if (!values.server) throw new UsageError('Give the server identifier: cronbeat crontab watch --server IDENTIFIER (see --help).');
        const baseUrl = baseUrlOption(values.url);
        return await watch({
          server: withoutControlCharacters('--server', values.server),
          url: baseUrl,
          sources: given ? files : machineSources(),
          runParts,
          files: [...files.map((source) => `${source.format}:${source.label}`), ...runPartsGiven.map((folder) => `run-parts:${folder}`)],
          api: new ApiClient(baseUrl, apiToken(values.token)),
          dataDir: prepareDataDir(values['data-dir']),
          intervalMs: positiveInteger(values.interval ?? '60', '--interval', 86_400) * 1000,
          intervalGiven: values.interval !== undefined,
          once: values.once ?? false,
        });
      }
    } catch (error) {
      if (error instanceof CrontabReadError) throw new UsageError(error.message, 1);
      if (error instanceof ApiError) {
        // An alert's 404: the server was deleted (or renamed) after watch checked it at start.
        const unknownServer = error.status === 404 && error.request === 'POST /api/servers/alert';
        const hint = unknownServer ? ` (is there a server with identifier "${values.server}"? create it with POST /api/servers)` : '';
        throw new UsageError(`${error.message}${hint}`, 1);
      }
      throw error;
    }
    throw new UsageError('Say what to do: `cronbeat crontab scan`, `cronbeat crontab discover` or `cronbeat crontab watch` (see --help).');
  },
};

/**
 * `named`: the files were given with --file, so one that is not there is a typo, not a machine
 * without that crontab. `folders`: the rows of each folder run-parts runs, read after the crontabs.
 */
function scan(sources: CrontabSource[], named: boolean, json: boolean, { readCrontab, rowsOf }: typeof import('../crontab/jobs'), folders: Array<() => JobRow[]>): number {
  const rows: JobRow[] = [];
  let problems = 0;
  const reads = [
    ...sources.map((source) => () => {
      const crontab = readCrontab(source);
      if (crontab) rows.push(...rowsOf(source, crontab.lines));
      else if (named && source.path) throw new CrontabReadError(`cannot read ${source.path}: no such file`);
    }),
    ...folders.map((folder) => () => void rows.push(...folder())),
  ];
  for (const read of reads) {
    try {
      read();
    } catch (error) {
      if (!(error instanceof CrontabReadError)) throw error;
      console.error(`cronbeat: ${error.message}`);
      problems++;
    }
  }
  if (json) console.log(JSON.stringify(rows, null, 2));
  else if (rows.length === 0) console.log('No cron jobs found.');
  else printScan(rows);
  return problems > 0 && rows.length === 0 ? 1 : 0;
}

/** A terminal's usual width: the table and its notes fit it, a long command is cut (--json has it whole). */
const SCAN_WIDTH = 100;

/** Each crontab under its name; why a line is not monitored in full below its table, so no column grows with it. */
function printScan(rows: JobRow[]): void {
  const sources = [...new Set(rows.map((row) => row.source))];
  sources.forEach((source, index) => {
    const own = rows.filter((row) => row.source === source);
    if (index > 0) console.log('');
    console.log(cut(`${printable(source)}:`, SCAN_WIDTH));
    printTable(own.map((row) => ({ ...row })), ['line', 'user', 'schedule', 'timezone', 'status', 'command'], { width: SCAN_WIDTH, indent: '  ' });
    for (const row of own.filter((r) => r.reason)) {
      const where = row.line === null ? row.name : `line ${row.line}`;
      for (const line of wrapped(printable(`${where}, ${row.status}: ${row.reason}`), SCAN_WIDTH, '  ')) console.log(line);
    }
  });
}
