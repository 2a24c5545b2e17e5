import { randomUuid } from '../../client/pulses/randomIds';
import { describeDelivery, plural, PulseSender, type Delivery } from '../../client/pulseSender';
import { spoolFolder } from '../../client/spool/spoolFolder';
import type { Pulse } from '../../client/pulses/pulses';
import { printNotices } from '../notices';
import { baseUrlOption } from '../commands/ping';
import type { JobResult } from './runJob';
import { STOPPING_SIGNALS } from '../signals';
import type { LineOptions, LineRun, PulseTarget } from './runLine';
import { describeError } from '../../domain/text/errorText';

/*
 * What `cronbeat run` tells the agent about a job that has already started: loaded only once
 * the job runs (see run.ts), so that nothing here, not even loading it, can keep the job from
 * running. Nothing here throws either: the job's status is the caller's to return.
 */

export interface RunToReport {
  values: LineOptions & { url?: string; 'data-dir'?: string };
  byLine: boolean;
  token: string;
  job: Promise<JobResult>;
  /** The job's start on the wall clock (what the pulse counts for) and on the monotonic clock (its duration). */
  startedAt: number;
  began: number;
}

/** Delivers a pulse; never throws, so the job's status survives. */
async function deliver(sender: PulseSender, pulse: Pulse, what: string): Promise<Delivery | string> {
  try {
    return await sender.send(pulse);
  } catch (error) {
    return `${what} not sent and not kept: ${describeError(error)}`;
  }
}

/**
 * A line's pulse to its target; what became of it teaches the line run (its monitor's token).
 * Until it is answered (delivered, kept, refused) it is among `unanswered`.
 */
async function deliverFor(sender: PulseSender, target: PulseTarget, line: LineRun | undefined, pulse: Omit<Pulse, 'tokenOrSlug'>, what: string, unanswered: Set<Pulse>) {
  const full = { ...pulse, ...target };
  unanswered.add(full);
  const delivery = await deliver(sender, full, what);
  unanswered.delete(full);
  if (typeof delivery !== 'string' && line) line.learn(target, delivery);
  return delivery;
}

/** What stops `run` once its job has ended; before, every one of them is the job's (runJob.ts forwards it). */
const STOPPING = STOPPING_SIGNALS;

/**
 * Once the job has ended, a signal stops the reporting (an agent that does not answer holds it
 * for seconds): the pulses not answered yet go to the spool, and `run` exits with the job's own
 * status, never the signal's. SIGUSR1 is ignored rather than opening Node's debugger. Returns
 * the function that takes the handlers away.
 */
function onStop(sender: PulseSender, unanswered: Set<Pulse>, ended: () => JobResult | undefined): () => void {
  const stop = (signal: NodeJS.Signals) => {
    const job = ended();
    if (!job) return;
    for (const pulse of unanswered) sender.keep(pulse);
    if (unanswered.size > 0) {
      printNotices([`stopped by ${signal} while reporting the run: ${plural(unanswered.size, 'pulse')} not yet answered kept in the spool, sent by the next ping or run or by \`cronbeat spool flush\``]);
    }
    process.exit(job.status);
  };
  const ignore = () => {};
  for (const signal of STOPPING) process.on(signal, stop);
  process.on('SIGUSR1', ignore);
  return () => {
    for (const signal of STOPPING) process.off(signal, stop);
    process.off('SIGUSR1', ignore);
  };
}

const said = (delivery: Delivery | string, what: string) => (typeof delivery === 'string' ? [delivery] : describeDelivery(delivery, what));

/** A pulse kept in the spool or refused, with nothing else to say about it: said once for the run's two pulses. */
function plainOutcome(delivery: Delivery | string): { kind: 'spooled' | 'rejected'; reason: string } | null {
  if (typeof delivery === 'string' || delivery.warnings.length > 0 || delivery.replay.rejected.length > 0) return null;
  const { outcome } = delivery;
  return outcome.kind === 'spooled' || outcome.kind === 'rejected' ? outcome : null;
}

/** One line for both pulses when they met the same fate (the agent out of reach, an unknown token); null otherwise. */
function bothPulses(start: Delivery | string, end: Delivery | string): string | null {
  const first = plainOutcome(start);
  const last = plainOutcome(end);
  if (first === null || last === null || first.kind !== last.kind || typeof end === 'string') return null;
  if (first.kind === 'rejected') return first.reason === last.reason ? `start and end pulses refused by the agent: ${first.reason}` : null;
  const waiting = end.replay.waiting.length + 1;
  return `start and end pulses saved to the spool (${first.reason}); ${plural(waiting, 'pulse')} waiting, sent by the next ping or run or by \`cronbeat spool flush\``;
}

/** The line run of `cronbeat run --name …`; throws the sentence saying why this run is not monitored. */
async function lineRunOf(values: LineOptions, sender: PulseSender, now: number): Promise<LineRun> {
  // Loaded only for a line: schedules and zones would slow every run by token, and crontab
  // parsing every line with --schedule.
  const [{ lineRunFor }, { machineZone }] = await Promise.all([import('./runLine'), import('../machineZone')]);
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

/**
 * Sends the start pulse as the job runs and the end pulse once it ends, with notices on stderr
 * for what needs a word. An agent out of reach is said once for the run, not once per pulse.
 */
export async function reportRun(run: RunToReport): Promise<void> {
  const { values, startedAt } = run;
  let sender: PulseSender;
  let line: LineRun | undefined;
  try {
    sender = new PulseSender(baseUrlOption(values.url), spoolFolder(values['data-dir']));
    if (run.byLine) line = await lineRunOf(values, sender, startedAt);
  } catch (error) {
    printNotices([`not monitoring this run: ${describeError(error)}`]);
    return;
  }
  const unanswered = new Set<Pulse>();
  let ended: JobResult | undefined;
  const stopHandlers = onStop(sender, unanswered, () => ended);
  try {
    await report(run, sender, line, unanswered, (job) => (ended = job));
  } finally {
    stopHandlers();
  }
}

/** reportRun's pulses; `onEnd` is told the job's result with its end pulse among `unanswered`. */
async function report(run: RunToReport, sender: PulseSender, line: LineRun | undefined, unanswered: Set<Pulse>, onEnd: (job: JobResult) => void): Promise<void> {
  const rid = randomUuid();
  const started = deliverFor(sender, line ? line.start() : { tokenOrSlug: run.token }, line, { signal: 'start', rid, key: randomUuid(), at: run.startedAt }, 'start pulse', unanswered).then(
    (delivery) => {
      // A start kept in the spool or refused is said with the end, which most likely meets the same fate.
      if (plainOutcome(delivery) === null) printNotices(said(delivery, 'start pulse'));
      return delivery;
    },
  );
  const job = await run.job;
  const durationMs = Math.round(job.endedAt - run.began);
  // The end counts for when its result is known (at most a moment after the job exits), never
  // for an earlier moment that a start counted for its arrival could follow.
  const endedAt = Date.now();
  const endTarget = line ? line.end() : { tokenOrSlug: run.token };
  const endPulse = { signal: job.status, rid, body: job.output, key: randomUuid(), at: endedAt, durationMs };
  // Kept in the spool with the start if run is stopped before the start is answered.
  const waitingEnd = { ...endPulse, ...endTarget };
  unanswered.add(waitingEnd);
  onEnd(job);
  const start = await started; // the end must not overtake its start
  unanswered.delete(waitingEnd);
  // A line the agent refused at the start (another key's monitor, the key's limit) would be
  // refused at the end too: said once, and the end not sent.
  if (line?.refused) {
    if (plainOutcome(start) !== null) printNotices(said(start, 'start pulse'));
    return;
  }
  const end = await deliverFor(sender, endTarget, line, endPulse, 'end pulse', unanswered);
  const both = bothPulses(start, end);
  if (both !== null) return printNotices([both]);
  if (plainOutcome(start) !== null) printNotices(said(start, 'start pulse'));
  printNotices(said(end, 'end pulse'));
}
