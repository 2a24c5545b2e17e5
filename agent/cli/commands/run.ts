import { UsageError, type Command } from '../command';
import { printNotices } from '../notices';
import { monotonicMs } from '../../client/pulses/monotonic';
import { runJob, startedFdOf } from '../run/runJob';
import { readRunWords } from '../run/runWords';
import { describeError } from '../../domain/text/errorText';

const help = `Usage: cronbeat run TOKEN [--url URL] -- COMMAND [ARGS...]
       cronbeat run --name NAME --schedule CRON [--timezone TZ] [--grace MIN] [--max-runtime MIN] [--alert-after N] [--server ID] -- COMMAND [ARGS...]

Runs COMMAND and reports it to the monitor with this token: a start pulse when it begins,
then its exit code with the last 100 KB of its output (stdout and stderr interleaved).
Standard input, output and error pass through; SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
SIGUSR2 and every other signal that would end cronbeat (SIGALRM…) are forwarded.

With --name instead of a token, the line itself is the monitor's source of truth: its first run
creates the monitor (matched afterwards by the slug of NAME, e.g. "Nightly Backup" →
nightly-backup), and when the line's schedule, zone, grace, max run time or alert-after change the monitor follows at the
next run. The key comes from CRONBEAT_API_TOKEN (a ping key: cronbeat token create --scope ping).
The monitor's token is remembered beside the spool, so later runs ask the agent nothing first.
A mistake in these options (a wrong --schedule) is said once on stderr; the job runs anyway.

Everything after -- is the command's. Without --, the first word that is neither an option
below nor its value (nor, without --name, the token) starts the command, with every word after
it, a -- among them included: cronbeat run TOKEN kubectl exec pod -- /backup.sh runs kubectl.
A misspelt option, a bad value, a missing key or token, an agent out of reach: one line on
stderr, and the command runs exactly as written.

Monitoring never breaks the job: the job starts at once, each request gives up after 5 s
(retried with backoff), pulses the agent cannot take wait in the spool, and the exit status
is always the job's own. Each pulse counts for the moment of its event, and the run's
duration is measured here, so a pulse that arrives late changes neither.

Options:
  --name NAME      the monitor's name; its slug identifies it within the company
  --schedule CRON  the job's cron schedule, as in its crontab line (five fields or @daily…);
                   without it, read from the crontab line that runs --name=SLUG (and its CRON_TZ),
                   as \`cronbeat crontab discover --by-name\` writes it
  --timezone TZ    the zone cron runs the line in (default: this machine's)
  --grace MIN      minutes after each scheduled run within which it must start (default: the
                   schedule's own period, at most 60)
  --max-runtime MIN  minutes a started run may take before it is stuck (default: no limit of
                   its own; a run still going when the next one is due never finished)
  --alert-after N  alert at the N-th failed or missed run in a row (default 1: the first); the
                   monitor shows failed from the first
  --server ID      tags the monitor server:ID (one tag per server, to list and badge them)
  --url URL        the agent (default: $CRONBEAT_URL, else http://127.0.0.1:8787)
  --data-dir DIR   where the spool lives (default: $CRONBEAT_DATA_DIR, else the per-user folder;
                   if it cannot be used, a private folder in $TMPDIR)
  --started-fd N   write "started" to file descriptor N (then close it) just before the command
                   starts: the fail-open shim of \`crontab discover\` runs the command itself only
                   when cronbeat never got that far, so the job never runs twice

Exit status: the command's own; 128+N when it was killed by signal N; 127 when it could not
be found, 126 when it cannot be run (reported as a failure too); 2 only when there is no
command to run at all.

Examples:
  0 3 * * * cronbeat run 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f -- /usr/local/bin/backup.sh --full
  CRONBEAT_API_TOKEN=cb_…
  0 3 * * * cronbeat run --name nightly-backup --schedule '0 3 * * *' -- /usr/local/bin/backup.sh
  cronbeat run "$TOKEN" -- sh -c 'pg_dump app | gzip > /var/backups/app.sql.gz'`;

/*
 * `cronbeat run` wraps jobs that must run whatever happens to Cronbeat: before the job starts,
 * only its words are read (runWords.ts) and the job spawned (runJob.ts); monitoring
 * (runReport.ts, with the spool, the line's schedule and HTTP) loads after, and a failure to
 * load it is one line on stderr like any other. The exit status is the job's own.
 */

export const runCommand: Command = {
  name: 'run',
  summary: 'Run a command and report its start, exit code and output to a monitor',
  help,
  readsOwnHelp: true,
  async run(argv) {
    const words = readRunWords(argv);
    if (words.command.length === 0) {
      // Nothing to run, so nothing to protect: the help asked for, or the usage error.
      if (words.help) {
        console.log(help);
        return 0;
      }
      throw new UsageError(words.missing!);
    }
    const startedFd = startedFdOf(words.values['started-fd']);
    const mistake = words.values['started-fd'] !== undefined && startedFd === null ? '--started-fd must be a file descriptor number from 3 up' : words.mistake;
    // Each pulse counts for its event, however late it arrives; the run's duration is measured
    // here on the monotonic clock, so neither a slow agent nor a clock change alters it.
    const startedAt = Date.now();
    const began = monotonicMs();
    const job = runJob(words.command, startedFd); // the job starts here, before anything is asked of anyone
    void job.then(({ startError }) => startError && printNotices([startError]));
    if (mistake !== undefined) {
      // A mistake in the line's own words must not stop the job it wraps: it runs unmonitored
      // (the monitor then fails as a missed run) and the mistake is said once.
      printNotices([`not monitoring this run: ${mistake}`]);
    } else {
      try {
        const { reportRun } = await import('../run/runReport');
        await reportRun({ values: words.values, byLine: words.values.name !== undefined || words.values.schedule !== undefined, token: words.token ?? '', job, startedAt, began });
      } catch (error) {
        printNotices([`not monitoring this run: ${describeError(error)}`]);
      }
    }
    return (await job).status;
  },
};
