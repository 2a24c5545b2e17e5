import type { HttpOutcome } from './connection/http';
import { monotonicMs } from './pulses/monotonic';
import { sendPulse, type Pulse } from './pulses/pulses';
import { plural, Spool, type SpoolEntry } from './spool/spool';
import { refusalLines, replay, type ReplayResult, type ReplayVerdict } from './spool/spoolFlush';
import { adoptSpool } from './spool/spoolAdopt';
import { spoolFolder, strandedSpoolFolder, type SpoolFolder } from './spool/spoolFolder';
import { describeError } from '../domain/text/errorText';

export { plural };

/** What became of a pulse: at the agent, kept in the spool for later, refused by the agent, or neither sent nor kept. */
export type DeliveryOutcome =
  | { kind: 'delivered'; /** The monitor a line's pulse went to (X-Cronbeat-Monitor-Token), when it was sent now. */ monitorToken?: string }
  | { kind: 'spooled'; reason: string }
  | { kind: 'rejected'; reason: string }
  | { kind: 'lost'; reason: string };

export interface Delivery {
  outcome: DeliveryOutcome;
  /** What the replay of older spooled pulses, done first, achieved. */
  replay: ReplayResult;
  /** What else needs a word on stderr: spool lines set aside, a full spool, a fallback folder. */
  warnings: string[];
}

const NOTHING_REPLAYED: ReplayResult = { busy: false, delivered: [], rejected: [], waiting: [] };

/**
 * How long one `ping` or `run` spends delivering older spooled pulses before its own. An agent
 * that answers, but slowly, would otherwise hold the command for the whole backlog (10,000
 * pulses at seconds each: hours), and with it a job's `flock -n` or systemd unit, whose next runs
 * are skipped meanwhile. Past it, its own pulses wait behind the rest, in order, for the next one.
 */
export const REPLAY_BUDGET_MS = 10_000;
const SLOW_AGENT = 'the agent answered the older pulses waiting for it too slowly to send them all now';

/**
 * Delivers pulses to one agent, losing none it can keep: older spooled pulses go first, and a
 * pulse that cannot be delivered now joins the spool with its event time. Sending never
 * depends on the spool: with no usable spool folder, or a spool that cannot be read or
 * written, the pulse is still sent. Never throws.
 */
export class PulseSender {
  private readonly spool: Spool | null;
  /** Whether a notice already said where pulses are kept, or why they cannot be. */
  private folderTold = false;
  /**
   * Agents that failed every try of a pulse in this process: the next pulse to one gets a single
   * try, so a run's end does not wait out all the retries again for the start it just spooled.
   */
  private readonly gaveUpOn = new Set<string>();
  /** Why each agent could not take its last pulse (a redirect, a 500, a refused connection), for the notices. */
  private readonly whyDown = new Map<string, string>();
  /** The keys of the pulses this process put in the spool, so that `keep` never writes one twice. */
  private readonly spooled = new Set<string>();
  /** Time this process has spent replaying the spool for its own pulses (REPLAY_BUDGET_MS), and whether it ran out. */
  private replaySpentMs = 0;
  private replayCut = false;
  /** Whether the temporary folder was looked at for pulses kept there (adoptStranded). */
  private strandedChecked = false;

  constructor(
    readonly baseUrl: string,
    private readonly folder: SpoolFolder,
  ) {
    this.spool = folder.dir === null ? null : new Spool(folder.dir);
  }

  /** The spool's folder, where other things worth keeping beside it go (the lines' monitors); null when there is none. */
  get spoolDir(): string | null {
    return this.folder.dir;
  }

  async send(pulse: Pulse): Promise<Delivery> {
    const warnings: string[] = [];
    const done = (outcome: DeliveryOutcome, replay: ReplayResult): Delivery => ({
      outcome,
      replay,
      warnings: [...warnings, ...this.warnings()],
    });
    let replay = NOTHING_REPLAYED;
    try {
      replay = await this.flush(0, 'own');
    } catch (error) {
      warnings.push(`could not replay the spool in ${this.folder.dir}: ${describe(error)}`);
    }
    if (replay.busy) {
      // Another process is replaying: queue behind the pulses it is sending; it takes this one
      // along, or, if it has just finished, the replay below does.
      const entry = await this.append(pulse);
      if (entry) {
        const again = await this.flush(0, 'own').catch(() => ({ ...NOTHING_REPLAYED, busy: true }));
        if (again.delivered.some((e) => e.id === entry.id)) return done({ kind: 'delivered' }, again);
        const refused = again.rejected.find((e) => e.id === entry.id);
        if (refused) return done({ kind: 'rejected', reason: refused.refusedBecause }, again);
        const reason = again.busy ? 'another cronbeat process is delivering the spool and takes it along' : this.whyUnreachable(this.baseUrl);
        return done({ kind: 'spooled', reason: this.keptWhere(reason) }, { ...again, waiting: again.waiting.filter((e) => e.id !== entry.id) });
      }
    } else if (replay.waiting.some((entry) => entry.baseUrl === this.baseUrl)) {
      // The agent cannot take older pulses, so this one waits behind them to keep the order
      // (if the spool cannot take it, sending it now beats losing it).
      if (await this.append(pulse)) return done({ kind: 'spooled', reason: this.keptWhere(this.replayCut ? SLOW_AGENT : this.whyUnreachable(this.baseUrl)) }, replay);
    }
    const outcome = await this.sendTo(this.baseUrl, pulse, false);
    if (outcome.kind === 'ok') return done({ kind: 'delivered', monitorToken: headerValue(outcome.headers?.['x-cronbeat-monitor-token']) }, replay);
    if (outcome.kind === 'rejected') return done({ kind: 'rejected', reason: outcome.message }, replay);
    if (this.folder.dir === null || !this.spool) {
      return done({ kind: 'lost', reason: `${outcome.message}; ${this.noFolder(this.folder.dir === null ? this.folder.reason : 'no spool')}` }, replay);
    }
    try {
      await this.spool.append(this.baseUrl, pulse);
      this.spooled.add(pulse.key);
    } catch (error) {
      return done({ kind: 'lost', reason: `${outcome.message}; ${this.noFolder(`the spool in ${this.folder.dir} cannot be written (${describe(error)})`)}` }, replay);
    }
    return done({ kind: 'spooled', reason: this.keptWhere(outcome.message) }, replay);
  }

  /**
   * Replays the spool in order. `target` says where each entry goes: to the agent it was meant
   * for ('each'), to this sender's agent ('redirect', for `cronbeat spool flush --url`), or only
   * the entries meant for this sender's agent ('own', as ping and run do, so a pulse once sent
   * to a wrong --url never slows the next jobs down; `spool flush` still has it). `onEach` is
   * told after each entry is tried (for a progress line).
   */
  async flush(waitMs = 0, target: 'each' | 'redirect' | 'own' = 'each', onEach?: () => void): Promise<ReplayResult> {
    if (!this.spool) return NOTHING_REPLAYED;
    // A ping or run takes along only its own agent's pulses, as its replay sends only those; a flush takes all.
    await this.adoptStranded(this.spool, target === 'own' ? (entry) => entry.baseUrl === this.baseUrl : () => true);
    // An agent that could not take one entry gets none of the later ones, so none overtakes it.
    const down = new Set<string>();
    const began = monotonicMs();
    const budget = target === 'own' ? REPLAY_BUDGET_MS - this.replaySpentMs : Infinity;
    return replay(this.spool, async (entry: SpoolEntry) => {
      if (target === 'own' && entry.baseUrl !== this.baseUrl) return 'unreachable';
      if (monotonicMs() - began >= budget) {
        this.replayCut = true;
        return 'unreachable'; // kept, in order, for the next command
      }
      const baseUrl = target === 'redirect' ? this.baseUrl : entry.baseUrl;
      if (down.has(baseUrl)) return 'unreachable';
      const verdict = verdictOf(await this.sendTo(baseUrl, entry.pulse, true));
      if (verdict === 'unreachable') down.add(baseUrl);
      onEach?.();
      return verdict;
    }, waitMs).finally(() => {
      if (target === 'own') this.replaySpentMs += monotonicMs() - began;
    });
  }

  /**
   * Once per process, before the first replay: pulses kept in the temporary folder while the data
   * folder could not be used join the data folder's spool, behind what waited there already.
   */
  private async adoptStranded(spool: Spool, take: (entry: SpoolEntry) => boolean): Promise<void> {
    if (this.strandedChecked || this.folder.dir === null || this.folder.fallbackReason) return;
    this.strandedChecked = true;
    const stranded = strandedSpoolFolder(this.folder.dir);
    if (!stranded) return;
    try {
      await adoptSpool(new Spool(stranded), spool, take);
    } catch (error) {
      spool.warnings.push(`could not take along the pulses kept in ${stranded}: ${describe(error)}`);
    }
  }

  /**
   * Puts `pulse` in the spool at once, unsent, for a process about to be stopped (the file is
   * written before this returns); false when there is no spool. Never throws.
   */
  keep(pulse: Pulse): boolean {
    if (!this.spool) return false;
    if (this.spooled.has(pulse.key)) return true; // already there, waiting behind older pulses
    this.spool.append(this.baseUrl, pulse).catch(() => {});
    return true;
  }

  /** sendPulse, with a single try to an agent this process has given up on once. */
  private async sendTo(baseUrl: string, pulse: Pulse, late: boolean): Promise<HttpOutcome> {
    const outcome = await sendPulse(baseUrl, pulse, late, this.gaveUpOn.has(baseUrl) ? [] : undefined);
    if (outcome.kind === 'unreachable') {
      this.gaveUpOn.add(baseUrl);
      this.whyDown.set(baseUrl, outcome.message);
    } else {
      this.gaveUpOn.delete(baseUrl);
      this.whyDown.delete(baseUrl);
    }
    return outcome;
  }

  /**
   * Why the agent at `baseUrl` took none of the pulses offered to it by this process, as its last
   * answer said: a redirect or a 500 is no agent out of reach, and is fixed elsewhere.
   */
  whyUnreachable(baseUrl: string): string {
    return this.whyDown.get(baseUrl) ?? 'the agent cannot be reached';
  }

  /** The spool's warnings not told yet (lines set aside, a full spool). */
  warnings(): string[] {
    return this.spool?.warnings.splice(0) ?? [];
  }

  /** Appends to the spool; null (and the pulse is sent instead) when it cannot be written. */
  private async append(pulse: Pulse): Promise<SpoolEntry | null> {
    try {
      const entry = (await this.spool?.append(this.baseUrl, pulse)) ?? null;
      if (entry) this.spooled.add(pulse.key);
      return entry;
    } catch {
      return null;
    }
  }

  /** Why nothing can be kept: in full the first time, then a pointer to it (run's end pulse after its start). */
  private noFolder(reason: string): string {
    if (this.folderTold) return 'nowhere to keep it (see above)';
    this.folderTold = true;
    return reason;
  }

  /** The reason a pulse was spooled, saying the first time where when it is not the data folder. */
  private keptWhere(reason: string): string {
    if (this.folder.dir === null || !this.folder.fallbackReason || this.folderTold) return reason;
    this.folderTold = true;
    return `${reason}; kept in ${this.folder.dir} because ${this.folder.fallbackReason}`;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function verdictOf(outcome: HttpOutcome): ReplayVerdict {
  return outcome.kind === 'ok' ? 'delivered' : outcome.kind === 'rejected' ? { refusedBecause: outcome.message } : 'unreachable';
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code ?? describeError(error);
}

/** Builds a PulseSender for a base URL, keeping its spool in the data folder (`--data-dir`) or, if unusable, a private temporary one. */
export function pulseSenderFor(baseUrl: string, dataDirFlag?: string): PulseSender {
  return new PulseSender(baseUrl, spoolFolder(dataDirFlag));
}

/**
 * Notices about a delivery, one line each: only what needs attention (a pulse spooled, refused
 * or lost, the spool's own warnings), since cron mails whatever a job prints. `what` names the
 * pulse, e.g. "start pulse".
 */
export function describeDelivery(delivery: Delivery, what: string): string[] {
  const lines: string[] = [...delivery.warnings];
  const { replay, outcome } = delivery;
  lines.push(...refusalLines(replay.rejected));
  if (outcome.kind === 'spooled') {
    const waiting = replay.waiting.length + 1;
    lines.push(`${what} saved to the spool (${outcome.reason}); ${plural(waiting, 'pulse')} waiting, sent by the next ping or run or by \`cronbeat spool flush\``);
  }
  if (outcome.kind === 'rejected') lines.push(`${what} refused by the agent: ${outcome.reason}`);
  if (outcome.kind === 'lost') lines.push(`${what} not sent and not kept: ${outcome.reason}`);
  return lines;
}
