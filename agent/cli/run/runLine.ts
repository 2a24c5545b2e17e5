import { MAX_ALERT_AFTER } from '../../domain/monitors/failureStreak';
import type { Delivery } from '../../client/pulseSender';
import type { LineTarget } from '../../client/pulses/pulses';
import { LineMemory } from '../../client/pulses/lineMemory';
import { lookAlikesIn, slugOf } from '../../domain/monitors/ownLine';
import { canonicalTimeZone } from '../../domain/time/timeZones';
import { resolveTimeZone } from '../../domain/time/timeZones';
import { cronZone } from '../crontab/cronZone';
import { apiKeyProblem } from '../apiKey';
import { checkSchedule } from '../../domain/schedules';
import { defaultGraceMinutes } from '../../domain/monitors/dueTime';
import { WHOLE_MINUTES, wholeMinutes } from '../../domain/monitors/minutes';
import type { OwnLine } from '../crontab/ownLine';

/** The options of `cronbeat run --name NAME --schedule CRON …`. */
export interface LineOptions {
  name?: string;
  schedule?: string;
  timezone?: string;
  grace?: string;
  'max-runtime'?: string;
  'alert-after'?: string;
  server?: string;
}

/** Where a run's pulses go: a monitor's token, or its line (slug and ping key). */
export type PulseTarget = { tokenOrSlug: string; line?: LineTarget };

/**
 * How one run of a job's line reaches its monitor. The start goes by the monitor's token when an
 * earlier run remembered it for these very settings (no question to the agent before the job
 * starts), else by the line; the end always goes by the line, so the line's settings win at every
 * run (an edit in the dashboard holds until then). What the agent answers is remembered.
 */
export class LineRun {
  private readonly entry: string;
  /** Whether the agent refused the line itself (another key's monitor, the key's limit): its end would be refused the same way. */
  refused = false;

  constructor(
    readonly slug: string,
    private readonly line: LineTarget,
    private readonly said: string,
    baseUrl: string,
    private readonly memory: LineMemory | null,
  ) {
    this.entry = LineMemory.entryKey(baseUrl, line.key, slug);
  }

  start(): PulseTarget {
    const remembered = this.memory?.recall(this.entry);
    return remembered && remembered.said === this.said ? { tokenOrSlug: remembered.token } : this.end();
  }

  end(): PulseTarget {
    return { tokenOrSlug: this.slug, line: this.line };
  }

  /** Learns from what became of a pulse: the monitor's token, or that a remembered one is gone. */
  learn(target: PulseTarget, delivery: Delivery): void {
    const { outcome } = delivery;
    if (outcome.kind === 'delivered' && outcome.monitorToken && target.line) {
      this.memory?.remember(this.entry, { token: outcome.monitorToken, said: this.said });
    }
    // A remembered token the agent refuses (the monitor was deleted): the line makes a new one.
    if (outcome.kind === 'rejected' && !target.line) this.memory?.remember(this.entry, undefined);
    if (outcome.kind === 'rejected' && target.line) this.refused = true;
  }
}

/** Where a line's settings come from besides its options: the machine's zone, the clock, and its own crontab line. */
export interface LineContext {
  apiKey: string | undefined;
  baseUrl: string;
  spoolDir: string | null;
  /** The zone cron runs the line in when neither --timezone nor CRON_TZ says. */
  machineZone: string;
  now: number;
  /** The crontab line that runs `--name=SLUG`, for a line without --schedule (ownCrontabLine). */
  ownLine: (slug: string) => OwnLine | string;
}

/**
 * The line run the options describe, or the one sentence saying why this run is not monitored
 * (the job runs anyway). Without --schedule, the schedule and CRON_TZ are read from the crontab
 * line that runs `--name=SLUG`, so editing that line's schedule is all it takes. Without
 * --grace, the schedule's own period up to an hour (defaultGraceMinutes, as discover gives).
 */
export function lineRunFor(options: LineOptions, context: LineContext): LineRun | { problem: string } {
  if (!context.apiKey) return { problem: 'set CRONBEAT_API_TOKEN to a ping key (make one with `cronbeat token create --scope ping`)' };
  const keyProblem = apiKeyProblem(context.apiKey, 'CRONBEAT_API_TOKEN');
  if (keyProblem) return { problem: keyProblem };
  const lookAlikes = lookAlikesIn(options.name ?? '');
  if (lookAlikes.length > 0) {
    return { problem: `--name "${options.name}" is spelt with look-alike characters (${lookAlikes.join(' ')}), which could name another job's monitor: write it in plain letters` };
  }
  const slug = slugOf(options.name ?? '');
  if (!slug) {
    return { problem: `--name must have a letter from a to z (accents are dropped; other scripts, and digits alone, give no slug to match it by), not "${options.name ?? ''}"` };
  }
  let written = options.schedule;
  const zoneWritten = options.timezone;
  // CRON_TZ is read as cron reads it (EST is a zone to cron); a --timezone a person typed, as the API reads it.
  let cronTz: string | undefined;
  if (written === undefined) {
    const own = context.ownLine(slug);
    if (typeof own === 'string') return { problem: own };
    written = own.schedule;
    if (zoneWritten === undefined) cronTz = own.timezone ?? undefined;
  }
  const checked = checkSchedule(written);
  if (checked.schedule === undefined) return { problem: `--schedule "${written}" is not valid: ${checked.error}` };
  const fromCrontab = cronTz === undefined ? null : cronZone(cronTz);
  const zone = fromCrontab ? fromCrontab.zone : canonicalTimeZone(zoneWritten ?? context.machineZone);
  // In the words `monitor edit --timezone` uses: the zones it may mean ("Paris": Europe/Paris; "UTC+2": Etc/GMT-2).
  if (!zone) return { problem: fromCrontab?.error ?? `--timezone: ${resolveTimeZone(zoneWritten ?? context.machineZone).error}` };
  const grace = options.grace ?? String(defaultGraceMinutes(checked.schedule, context.now));
  if (wholeMinutes(grace) === null) {
    return { problem: `--grace must be ${WHOLE_MINUTES}, not "${grace}"` };
  }
  const settings: Record<string, string> = { schedule: checked.schedule, tz: zone, grace: String(Number(grace)) };
  const maxRuntime = options['max-runtime'];
  if (maxRuntime !== undefined) {
    if (wholeMinutes(maxRuntime) === null) {
      return { problem: `--max-runtime must be ${WHOLE_MINUTES}, not "${maxRuntime}"` };
    }
    settings.max_runtime = String(Number(maxRuntime));
  }
  const alertAfter = options['alert-after'];
  if (alertAfter !== undefined) {
    if (!/^\d{1,3}$/.test(alertAfter) || Number(alertAfter) < 1 || Number(alertAfter) > MAX_ALERT_AFTER) {
      return { problem: `--alert-after must be a whole number from 1 to ${MAX_ALERT_AFTER}, not "${alertAfter}"` };
    }
    settings.alert_after = String(Number(alertAfter));
  }
  if (options.server !== undefined) settings.server = options.server;
  const said = new URLSearchParams(settings).toString();
  const query = new URLSearchParams({ create: '1', name: options.name!.trim(), ...settings }).toString();
  const { apiKey, baseUrl, spoolDir } = context;
  return new LineRun(slug, { key: apiKey, query }, said, baseUrl, spoolDir === null ? null : new LineMemory(spoolDir));
}
