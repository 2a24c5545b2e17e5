import { spawn } from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { OutputTail } from '../../client/outputTail';
import { describeDelivery, PulseSender, type Delivery } from '../../client/pulseSender';
import { spoolFolder } from '../../client/spoolFolder';
import type { Pulse } from '../../client/pulses';
import { UsageError, type Command } from '../command';
import { baseUrlOption, printNotices } from './ping';
import { machineZone } from '../machineZone';
import { lineRunFor, type LineOptions, type LineRun, type PulseTarget } from './runLine';

const help = `Usage: cronbeat run TOKEN [--url URL] -- COMMAND [ARGS...]
       cronbeat run --name NAME --schedule CRON [--timezone TZ] [--grace MIN] [--server ID] -- COMMAND [ARGS...]

Runs COMMAND and reports it to the monitor with this token: a start pulse when it begins,
then its exit code with the last 100 KB of its output (stdout and stderr interleaved).
Standard input, output and error pass through; SIGINT, SIGTERM and SIGHUP are forwarded.

With --name instead of a token, the line itself is the monitor's source of truth: its first run
creates the monitor (matched afterwards by the slug of NAME, e.g. "Nightly Backup" →
nightly-backup), and when the line's schedule, zone or grace change the monitor follows at the
next run. The key comes from CRONBEAT_API_TOKEN (a ping key: cronbeat token create --scope ping).
The monitor's token is remembered beside the spool, so later runs ask the agent nothing first.
A mistake in these options (a wrong --schedule) is said once on stderr; the job runs anyway.

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
  --grace MIN      minutes after each scheduled run within which it must end (default: the
                   schedule's own period, at most 60)
  --server ID      tags the monitor server:ID (one tag per server, to list and badge them)
  --url URL        the agent (default: $CRONBEAT_URL, else http://127.0.0.1:8787)
  --data-dir DIR   where the spool lives (default: $CRONBEAT_DATA_DIR, else the per-user folder;
                   if it cannot be used, a private folder in $TMPDIR)
  --started-fd N   write "started" to file descriptor N (then close it) just before the command
                   starts: the fail-open shim of \`crontab discover\` runs the command itself only
                   when cronbeat never got that far, so the job never runs twice

Exit status: the command's own; 128+N when it was killed by signal N; 127 when it could not
be started (reported as a failure too); 2 when cronbeat itself was called wrongly.

Examples:
  0 3 * * * cronbeat run 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f -- /usr/local/bin/backup.sh --full
  CRONBEAT_API_TOKEN=cb_…
  0 3 * * * cronbeat run --name nightly-backup --schedule '0 3 * * *' -- /usr/local/bin/backup.sh
  cronbeat run "$TOKEN" -- sh -c 'pg_dump app | gzip > /var/backups/app.sql.gz'`;

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The options before the command: everything before `--`, or up to the token when there is no `--`. */
function splitAtCommand(argv: string[]): { own: string[]; command: string[] } {
  const separator = argv.indexOf('--');
  if (separator >= 0) return { own: argv.slice(0, separator), command: argv.slice(separator + 1) };
  let index = 0;
  while (index < argv.length && argv[index].startsWith('-')) index += argv[index].includes('=') ? 1 : 2;
  return { own: argv.slice(0, index + 1), command: argv.slice(index + 1) };
}

interface JobResult {
  status: number;
  output: string;
  /** Why the command could not start, when it could not. */
  startError?: string;
}

/** Tells the fail-open shim (agent/cli/crontab/shim.ts) that the job is starting now; never throws. */
function signalStarted(fd: number | null): void {
  if (fd === null) return;
  try {
    writeSync(fd, 'started');
    closeSync(fd); // closed before the spawn, so the job never holds the shim's pipe open
  } catch {
    // No shim listening: nothing to tell.
  }
}

/** Runs the command with stdio passed through, keeping the tail of its output. */
function runJob(command: string[], startedFd: number | null): Promise<JobResult> {
  return new Promise((resolve) => {
    const tail = new OutputTail();
    signalStarted(startedFd);
    const child = spawn(command[0], command.slice(1), { stdio: ['inherit', 'pipe', 'pipe'] });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
    const passThrough = (from: Readable, to: NodeJS.WriteStream) => {
      // A reader that went away (`cronbeat run … | head`) must not stop or kill the job:
      // its output is still read, and kept for the pulse.
      let broken = false;
      to.on('error', () => {
        broken = true;
        from.resume();
      });
      from.on('data', (chunk: Buffer) => {
        tail.push(chunk);
        // Slow readers of our output slow the job down instead of filling memory.
        if (!broken && !to.write(chunk)) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
    };
    passThrough(child.stdout!, process.stdout);
    passThrough(child.stderr!, process.stderr);

    let startError: string | undefined;
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Only a failed start lands here for a child with piped stdio.
      startError = `cannot start "${command[0]}": ${error.code === 'ENOENT' ? 'command not found' : error.code === 'EACCES' ? 'permission denied' : error.message}`;
    });
    child.on('close', (code, signal) => {
      for (const s of FORWARDED_SIGNALS) process.off(s, forward);
      if (startError) return resolve({ status: 127, output: `cronbeat: ${startError}\n`, startError });
      const status = code ?? 128 + (signal ? constants.signals[signal] : 0);
      resolve({ status, output: tail.text() });
    });
  });
}

/**
 * Delivers a pulse and prints what became of it; never throws, so the job's status survives.
 * `saidSpooled`: the start already said it went to the spool, and why; an end that follows it
 * there is not said again.
 */
async function report(sender: PulseSender, pulse: Pulse, what: string, saidSpooled = false): Promise<Delivery | undefined> {
  try {
    const delivery = await sender.send(pulse);
    const notices = describeDelivery(delivery, what);
    printNotices(saidSpooled && delivery.outcome.kind === 'spooled' ? notices.filter((n) => !n.startsWith(`${what} saved to the spool`)) : notices);
    return delivery;
  } catch (error) {
    printNotices([`${what} not sent and not kept: ${error instanceof Error ? error.message : String(error)}`]);
    return undefined;
  }
}

/** A line's pulse to its target; what became of it teaches the line run (its monitor's token). */
async function reportFor(sender: PulseSender, target: PulseTarget, line: LineRun | undefined, pulse: Omit<Pulse, 'token'>, what: string) {
  const delivery = await report(sender, { ...pulse, ...target }, what, line?.spooled);
  if (delivery && line) line.learn(target, delivery);
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The line run of `cronbeat run --name …`; throws the sentence saying why this run is not monitored. */
async function lineRunOf(values: LineOptions, sender: PulseSender, now: number): Promise<LineRun> {
  // Loaded only for a line without --schedule: crontab parsing would slow every other run.
  const ownLine = values.schedule === undefined ? (await import('../crontab/ownLine')).ownCrontabLine : () => '';
  const run = lineRunFor(values, {
    apiKey: process.env.CRONBEAT_API_TOKEN,
    baseUrl: sender.baseUrl,
    spoolDir: sender.spoolDir,
    machineZone: machineZone(),
    now,
    ownLine,
  });
  if ('problem' in run) throw new Error(run.problem);
  return run;
}

type RunValues = ReturnType<typeof parseRunArgs>['values'];

interface RunOptions {
  values: RunValues;
  startedFd: number | null;
  byLine: boolean;
  positionalToken: string | undefined;
}

const RUN_OPTIONS = {
  url: { type: 'string' },
  'data-dir': { type: 'string' },
  name: { type: 'string' },
  schedule: { type: 'string' },
  timezone: { type: 'string' },
  grace: { type: 'string' },
  server: { type: 'string' },
  'started-fd': { type: 'string' },
} as const;

function parseRunArgs(own: string[]) {
  try {
    return parseArgs({ args: own, allowPositionals: true, options: RUN_OPTIONS });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function startedFdOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  const fd = Number(value);
  if (!(Number.isInteger(fd) && fd >= 3)) throw new UsageError('--started-fd must be a file descriptor number from 3 up.');
  return fd;
}

/** The shim's --started-fd read from a line whose other options are wrong; null when absent or unusable. */
function lenientStartedFd(own: string[]): number | null {
  try {
    const { values } = parseArgs({ args: own, allowPositionals: true, strict: false, options: RUN_OPTIONS });
    return startedFdOf(typeof values['started-fd'] === 'string' ? values['started-fd'] : undefined);
  } catch {
    return null;
  }
}

/** The run's own options, or a UsageError saying what is wrong with them. */
function runOptions(own: string[], command: string[]): RunOptions {
  const { values, positionals } = parseRunArgs(own);
  const startedFd = startedFdOf(values['started-fd']);
  const byLine = values.name !== undefined || values.schedule !== undefined;
  const [positionalToken, extra] = positionals;
  if (byLine && positionalToken !== undefined) {
    throw new UsageError(`Give either a monitor token or --name, not both; put -- before the command: cronbeat run --name NAME --schedule CRON -- ${positionalToken} ...`);
  }
  if (!byLine && !positionalToken) {
    throw new UsageError('Give the monitor token (or --name and --schedule) and the command: cronbeat run TOKEN -- COMMAND [ARGS...]');
  }
  if (extra !== undefined) throw new UsageError(`Put -- before the command: cronbeat run TOKEN -- ${extra} ...`);
  if (command.length === 0) throw new UsageError('Give the command to run after --: cronbeat run TOKEN -- COMMAND [ARGS...]');
  return { values, startedFd, byLine, positionalToken };
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Run a command and report its start, exit code and output to a monitor',
  help,
  async run(argv) {
    const { own, command } = splitAtCommand(argv);
    let options: RunOptions | null;
    try {
      options = runOptions(own, command);
    } catch (error) {
      // A mistake in the line's own options must not stop the job it wraps: once there is a
      // command to run, it runs unmonitored (the monitor then fails as a missed run) and the
      // mistake is said once. Without a command there is nothing to protect.
      if (!(error instanceof UsageError) || command.length === 0) throw error;
      printNotices([`not monitoring this run: ${error.message}`]);
      options = null;
    }
    if (options === null) return (await runJob(command, lenientStartedFd(own))).status;
    const { values, startedFd, byLine, positionalToken } = options;

    // Set up monitoring, but never let a problem with it stop the job from running.
    let sender: PulseSender | undefined;
    try {
      sender = new PulseSender(baseUrlOption(values.url), spoolFolder(values['data-dir']));
    } catch (error) {
      printNotices([`not monitoring this run: ${describeError(error)}`]);
    }
    const token = positionalToken ?? '';
    const rid = randomUUID();
    // Each pulse counts for its event, however late it arrives; the run's duration is measured
    // here on the monotonic clock, so neither a slow agent nor a clock change alters it.
    const startedAt = Date.now();
    const began = performance.now();
    const jobDone = runJob(command, startedFd); // the job starts here, before anything is asked of anyone
    let line: LineRun | undefined;
    if (sender && byLine) {
      try {
        line = await lineRunOf(values, sender, startedAt);
      } catch (error) {
        printNotices([`not monitoring this run: ${describeError(error)}`]);
        sender = undefined;
      }
    }
    const started = sender
      ? reportFor(sender, line ? line.start() : { token }, line, { signal: 'start', rid, key: randomUUID(), at: startedAt }, 'start pulse')
      : Promise.resolve();
    const job = await jobDone;
    const durationMs = Math.round(performance.now() - began);
    const endedAt = Date.now();
    if (job.startError) printNotices([job.startError]);
    await started; // the end must not overtake its start
    // A line the agent refused at the start is refused at the end too: said once is enough.
    if (sender && !line?.refused) {
      const end = { signal: job.status, rid, body: job.output, key: randomUUID(), at: endedAt, durationMs };
      await reportFor(sender, line ? line.end() : { token }, line, end, 'end pulse');
    }
    return job.status;
  },
};
