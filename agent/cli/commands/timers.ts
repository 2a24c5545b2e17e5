import { parseArgs } from '../parseOptions';
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiClient, ApiError } from '../../client/connection/api';
import { DEFAULT_BASE_URL } from '../../client/connection/baseUrl';
import { prepareDataDir } from '../../dataFolder/dataDir';
import { serverTag } from '../../domain/monitors/ownLine';
import { positiveInteger, UsageError, withoutControlCharacters, type Command } from '../command';
import { machineZone, rootZone } from '../machineZone';
import { apiKeyOf } from '../apiKey';
import { MAX_MINUTES } from '../../domain/monitors/minutes';
import { baseUrlOption } from './ping';

const help = `Usage: cronbeat timers <list|discover|watch> [options]

Finds the systemd timers of this machine (Linux) and puts them under monitoring.

  cronbeat timers list [--user] [--root DIR]
      Lists the timers: schedule (OnCalendar= events, or OnUnitActiveSec= as a period such as
      @every 15m), RandomizedDelaySec=, AccuracySec=, Persistent=, the service each starts
      (Unit=, else the timer's own name), and what discover does with it.
  cronbeat timers discover [--user] [--root DIR] [--dry-run] [--grace MIN] [--server ID] [--reload]
                           [--shim-dir DIR] [--url URL] [--token API_TOKEN]
      Creates one monitor per enabled timer (tagged timer:NAME; schedule from the timer; zone this
      machine's; grace the schedule's own, or --grace, plus RandomizedDelaySec= and AccuracySec=,
      which delay a run) and wires its service with a drop-in, NAME.service.d/cronbeat.conf in
      /etc/systemd/system (--user: ~/.config/systemd/user): a start pulse before the service runs
      and its result ($SERVICE_RESULT, $EXIT_CODE, $EXIT_STATUS) after, both prefixed with "-" and
      run only when Cronbeat's entry point is there, so a missing or broken Cronbeat never fails
      the service. The drop-in holds the monitor's token (it lets one ping that monitor, nothing
      else); an API key never goes in a unit. Services already wired are left alone, so a second
      run changes nothing. Then says the \`systemctl daemon-reload\` to run, or runs it (--reload).
  cronbeat timers discover --undo [--user] [--root DIR] [--dry-run] [--reload]
      Removes exactly the drop-ins discover wrote; the monitors are kept, and a later discover of
      the same timers takes them again instead of making new ones.
  cronbeat timers watch --server ID [--user] [--root DIR] [--interval 60] [--once] [--grace MIN]
      Watches the timers discover wired: a timer whose schedule changed is reported once
      (POST /api/servers/alert, change "altered") and its monitor takes the new schedule and
      grace; a timer removed (or its drop-in) is reported once ("removed"). Keeps its snapshot
      in the data folder, so a restart reports nothing new; what could not be sent waits there.

Options:
  --user              the user's timers (systemctl --user) instead of the system's
  --root DIR          read and write the unit folders under DIR (a container's or a test's)
  --dry-run           discover: show the monitors and the drop-ins it would write; change nothing
  --grace MIN         discover: minutes after each run within which it must report, before the
                      timer's own delays are added (default: the schedule's own, at most 60)
  --server ID         discover: also tag each monitor server:ID, as \`cronbeat run --server\` does;
                      watch: the server's identifier, as created with POST /api/servers
  --interval SEC      watch: seconds between snapshots (default 60); with --once, how often it is
                      started (left out, learned from the runs before it)
  --once              watch: take one snapshot, deliver what waits, and exit
  --reload            discover: run \`systemctl daemon-reload\` after writing
  --undo              discover: remove the drop-ins
  --shim-dir DIR      discover: where Cronbeat's entry point goes (as for \`crontab discover\`)
  --url URL           the agent (default: $CRONBEAT_URL, else ${DEFAULT_BASE_URL})
  --token API_TOKEN   discover: an API token; better, set CRONBEAT_API_TOKEN
  --data-dir DIR      where the record of the monitors discover made lives

Exit status: 0 done, 1 the API refused or could not be reached, a unit folder cannot be written
(nothing is changed then) or daemon-reload failed, 2 wrong usage.

Examples:
  cronbeat timers list
  sudo CRONBEAT_API_TOKEN=... cronbeat timers discover --dry-run
  sudo CRONBEAT_API_TOKEN=... cronbeat timers discover --server web-1 --reload
  cronbeat timers discover --user --undo --reload`;

export const timersCommand: Command = {
  name: 'timers',
  summary: 'List and discover (monitor) the systemd timers of this machine',
  help,
  subcommands: ['list', 'discover', 'watch'],
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        user: { type: 'boolean' },
        root: { type: 'string' },
        'dry-run': { type: 'boolean' },
        grace: { type: 'string' },
        server: { type: 'string' },
        reload: { type: 'boolean' },
        undo: { type: 'boolean' },
        'shim-dir': { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        'data-dir': { type: 'string' },
        interval: { type: 'string' },
        once: { type: 'boolean' },
      },
    });
    const [action, extra] = positionals;
    if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
    if (action !== 'list' && action !== 'discover' && action !== 'watch') throw new UsageError('Say what to do: `cronbeat timers list`, `cronbeat timers discover` or `cronbeat timers watch` (see --help).');
    const root = values.root === undefined ? null : resolve(withoutControlCharacters('--root', values.root));
    if (root !== null && !statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--root ${root}: no such folder.`);
    if (root === null && process.platform !== 'linux') throw new UsageError('systemd timers are a Linux thing: give --root DIR to read a folder of unit files here.');
    // Loaded here, not at the top: the other commands do not need them.
    const [{ unitFolders, UnitReadError }, { UnitWriteError }, discover, { defaultShimDir, planShim, ShimError }] = await Promise.all([
      import('../timers/units'),
      import('../timers/wired'),
      import('../timers/discover'),
      import('../crontab/shim'),
    ]);
    const folders = unitFolders(values.user ? 'user' : 'system', root ?? '/');
    const grace = values.grace === undefined ? null : positiveInteger(values.grace, '--grace', MAX_MINUTES);
    try {
      if (action === 'list') {
        discover.printTimers(discover.timerRows(folders, { grace, now: new Date() }));
        return 0;
      }
      if (action === 'watch') {
        if (!values.server) throw new UsageError('Give the server identifier: cronbeat timers watch --server IDENTIFIER (see --help).');
        const token = apiKeyOf(values.token);
        if (!token) throw new UsageError('An API token is needed: set CRONBEAT_API_TOKEN (make one with `cronbeat token create`) or pass --token.');
        const { watchTimers } = await import('../timers/watch');
        return await watchTimers({
          server: withoutControlCharacters('--server', values.server),
          folders,
          root,
          api: new ApiClient(baseUrlOption(values.url), token),
          dataDir: prepareDataDir(values['data-dir']),
          intervalMs: positiveInteger(values.interval ?? '60', '--interval', 86_400) * 1000,
          intervalGiven: values.interval !== undefined,
          once: values.once ?? false,
          grace,
        });
      }
      const dryRun = values['dry-run'] ?? false;
      const reload = values.reload ?? false;
      if (values.undo) return discover.undoTimers({ folders, root, dryRun, reload, dataDir: prepareDataDir(values['data-dir']) });
      let server: string | null = null;
      if (values.server !== undefined) {
        server = withoutControlCharacters('--server', values.server);
        if (serverTag(server) === undefined) throw new UsageError(`--server "${server}" cannot be a tag: letters, digits, "_", ".", ":" and "-", up to 43 characters.`);
      }
      const token = dryRun ? undefined : apiKeyOf(values.token);
      if (!dryRun && !token) throw new UsageError('An API token is needed: set CRONBEAT_API_TOKEN (make one with `cronbeat token create`) or pass --token.');
      const baseUrl = baseUrlOption(values.url);
      let shim;
      try {
        shim = planShim(values['shim-dir'] ?? process.env.CRONBEAT_SHIM_DIR ?? defaultShimDir(process.getuid?.() ?? 0));
      } catch (error) {
        if (error instanceof ShimError) throw new UsageError(error.message);
        throw error;
      }
      return await discover.discoverTimers({
        folders,
        root,
        dryRun,
        reload,
        grace,
        server,
        api: token === undefined ? null : new ApiClient(baseUrl, token),
        shim,
        // The self-contained job side the entry point runs (the file this command was started by, main.ts).
        runnerSource: realpathSync(process.argv[1]!),
        url: baseUrl,
        // Under --root, the zone of that system (a container's), whose systemd runs the timers.
        machineZone: (root === null ? undefined : rootZone(root)) ?? machineZone(),
        dataDir: prepareDataDir(values['data-dir']),
        now: new Date(),
      });
    } catch (error) {
      if (error instanceof UnitReadError || error instanceof UnitWriteError) throw new UsageError(error.message, 1);
      if (error instanceof ApiError) throw new UsageError(error.message, 1);
      throw error;
    }
  },
};
