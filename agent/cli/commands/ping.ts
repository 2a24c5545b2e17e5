import { randomUuid } from '../../client/pulses/randomIds';
import { parseArgs } from '../parseOptions';
import { InvalidBaseUrlError, resolveBaseUrl } from '../../client/connection/baseUrl';
import { OutputTail } from '../../client/pulses/outputTail';
import { describeDelivery, pulseSenderFor } from '../../client/pulseSender';
import type { PulseSignal } from '../../client/pulses/pulses';
import { UsageError, type Command } from '../command';
import { printNotices } from '../notices';
import { apiKeyAsToken, tokenProblem } from '../run/runWords';
import { STOPPING_SIGNALS } from '../signals';

const help = `Usage: cronbeat ping TOKEN [--start | --fail | --exit-code N] [--rid ID] [--message TEXT | --stdin] [--url URL]

Sends one pulse to the monitor with this token: by default "the run succeeded". It counts for
the moment of this call. If the agent cannot be reached (5 s timeout, retried with backoff,
each try with the same Idempotency-Key so it is stored once) the pulse is saved to the spool
and delivered later, so nothing is lost while the desktop app is closed.

Options:
  --start          the run started (pair it with the end using --rid)
  --fail           the run failed
  --exit-code N    the run ended with exit code N (0 success, 1-255 failure)
  --rid ID         a run id that pairs a start with its end, so the agent measures the duration
  --message TEXT   text to attach (shown with the run)
  --stdin          attach standard input instead (its last 100 KB)
  --url URL        the agent (default: $CRONBEAT_URL, else http://127.0.0.1:8787)
  --data-dir DIR   where the spool lives (default: $CRONBEAT_DATA_DIR, else the per-user folder;
                   if it cannot be used, a private folder in $TMPDIR)

Exit status: 0 delivered or saved to the spool, 1 refused by the agent (e.g. unknown token)
or neither delivered nor saved, 2 wrong usage.

Examples:
  0 3 * * * /usr/local/bin/backup.sh && cronbeat ping 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f
  ./import.sh 2>&1 | cronbeat ping "$TOKEN" --exit-code "\${PIPESTATUS[0]}" --stdin`;

/** The base URL for --url / CRONBEAT_URL, with a bad value as a usage error. */
export function baseUrlOption(flag: string | undefined): string {
  try {
    return resolveBaseUrl(flag);
  } catch (error) {
    if (error instanceof InvalidBaseUrlError) throw new UsageError(error.message);
    throw error;
  }
}

export { printNotices };

function signalOf(values: { start?: boolean; fail?: boolean; 'exit-code'?: string }): PulseSignal {
  const chosen = [values.start, values.fail, values['exit-code'] !== undefined].filter(Boolean).length;
  if (chosen > 1) throw new UsageError('Give only one of --start, --fail and --exit-code.');
  if (values.start) return 'start';
  if (values.fail) return 'fail';
  const raw = values['exit-code'];
  if (raw === undefined) return 'success';
  if (!/^\d{1,3}$/.test(raw) || Number(raw) > 255) throw new UsageError(`--exit-code must be a number from 0 to 255, not "${raw}".`);
  return Number(raw);
}

async function readStdinTail(): Promise<string> {
  const tail = new OutputTail();
  for await (const chunk of process.stdin) tail.push(chunk as Buffer);
  return tail.text();
}

/** The signals that stop a ping waiting for its agent: any that would end it (its pulse then kept). */
const STOPPING = STOPPING_SIGNALS;

/** The options of ping that take a value, and those that do not. */
const VALUE_OPTIONS = ['--exit-code', '--rid', '--message', '--url', '--data-dir'];
const OWN_OPTIONS = [...VALUE_OPTIONS, '--start', '--fail', '--stdin', '--help', '-h'];

/**
 * `argv` with the word after each option that takes a value joined to it (`--message=-x`) when
 * it starts with "-", as getopt takes it: a message often comes from the job (`--message "$(tail
 * -1 log)"`), and one that happens to start with "-" must not turn the pulse into a usage error
 * that sends nothing. Not one of ping's own options, though: `--message $EMPTY --fail` stays a
 * mistake rather than a success whose message is "--fail".
 */
function valuesJoined(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (VALUE_OPTIONS.includes(argv[i]) && next?.startsWith('-') && !OWN_OPTIONS.includes(next.split('=')[0])) joined.push(`${argv[i]}=${argv[++i]}`);
    else joined.push(argv[i]);
  }
  return joined;
}

export const pingCommand: Command = {
  name: 'ping',
  summary: 'Send one pulse to a monitor (success, start, fail or an exit code)',
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: valuesJoined(argv),
      allowPositionals: true,
      options: {
        start: { type: 'boolean' },
        fail: { type: 'boolean' },
        'exit-code': { type: 'string' },
        rid: { type: 'string' },
        message: { type: 'string' },
        stdin: { type: 'boolean' },
        url: { type: 'string' },
        'data-dir': { type: 'string' },
      },
    });
    const [token, extra] = positionals;
    if (!token) throw new UsageError('Give the monitor token: cronbeat ping TOKEN (see `cronbeat ping --help`).');
    const key = apiKeyAsToken(token, 'ping') ?? tokenProblem(token);
    if (key !== undefined) throw new UsageError(`${key}.`);
    if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}"; quote a --message that has spaces.`);
    if (values.message !== undefined && values.stdin) throw new UsageError('Give --message or --stdin, not both.');
    const signal = signalOf(values);
    const baseUrl = baseUrlOption(values.url);
    const body = values.stdin ? await readStdinTail() : values.message;
    // The event is this call, once its input is complete: the pulse counts for it however late it arrives.
    const at = Date.now();

    const sender = pulseSenderFor(baseUrl, values['data-dir']);
    const pulse = { tokenOrSlug: token, signal, rid: values.rid, body, key: randomUuid(), at };
    // Stopped while an agent does not answer (it can take seconds), the pulse is kept, not lost.
    const stop = (stopSignal: NodeJS.Signals) => {
      if (sender.keep(pulse)) {
        printNotices([`stopped by ${stopSignal} before the agent answered: the pulse is kept in the spool, sent by the next ping or run or by \`cronbeat spool flush\``]);
        process.exit(0);
      }
      printNotices([`stopped by ${stopSignal} before the agent answered: the pulse is lost, with no spool to keep it in`]);
      process.exit(1);
    };
    for (const stopSignal of STOPPING) process.on(stopSignal, stop);
    let delivery;
    try {
      delivery = await sender.send(pulse);
    } finally {
      for (const stopSignal of STOPPING) process.off(stopSignal, stop);
    }
    printNotices(describeDelivery(delivery, 'pulse'));
    return delivery.outcome.kind === 'rejected' || delivery.outcome.kind === 'lost' ? 1 : 0;
  },
};
