import type { HttpOutcome } from './http';
import { sendPulse, type Pulse } from './pulses';
import { Spool, type ReplayResult, type ReplayVerdict, type SpoolEntry } from './spool';

/** What became of a pulse: at the agent, kept in the spool for later, or refused by the agent. */
export type DeliveryOutcome =
  | { kind: 'delivered' }
  | { kind: 'spooled'; reason: string }
  | { kind: 'rejected'; reason: string };

export interface Delivery {
  outcome: DeliveryOutcome;
  /** What the replay of older spooled pulses, done first, achieved. */
  replay: ReplayResult;
}

/**
 * Delivers pulses to one agent without ever losing one: older spooled pulses go first, and a
 * pulse that cannot be delivered now joins the spool with its original time. Never throws for
 * network trouble; only a broken data folder (disk full, no permission) can throw.
 */
export class PulseSender {
  constructor(
    readonly baseUrl: string,
    private readonly spool: Spool,
    private readonly now: () => number = Date.now,
  ) {}

  async send(pulse: Pulse): Promise<Delivery> {
    const sentAt = this.now();
    const replay = await this.flush(0, 'own');
    if (replay.busy) {
      // Another process is replaying: queue behind the pulses it is sending; it takes this one
      // along, or, if it has just finished, the replay below does.
      const entry = this.spool.append(this.baseUrl, pulse, sentAt);
      const again = await this.flush(0, 'own');
      if (again.delivered.some((e) => e.id === entry.id)) return { outcome: { kind: 'delivered' }, replay: again };
      if (again.rejected.some((e) => e.id === entry.id)) return { outcome: { kind: 'rejected', reason: 'the agent refused it' }, replay: again };
      const reason = again.busy ? 'another cronbeat process is delivering the spool and takes it along' : 'the agent cannot be reached';
      return { outcome: { kind: 'spooled', reason }, replay: { ...again, waiting: again.waiting.filter((e) => e.id !== entry.id) } };
    }
    if (replay.waiting.some((entry) => entry.baseUrl === this.baseUrl)) {
      // The agent cannot take older pulses, so this one waits behind them to keep the order.
      this.spool.append(this.baseUrl, pulse, sentAt);
      return { outcome: { kind: 'spooled', reason: 'the agent cannot be reached' }, replay };
    }
    const outcome = await sendPulse(this.baseUrl, pulse);
    if (outcome.kind === 'ok') return { outcome: { kind: 'delivered' }, replay };
    if (outcome.kind === 'rejected') return { outcome: { kind: 'rejected', reason: outcome.message }, replay };
    this.spool.append(this.baseUrl, pulse, sentAt);
    return { outcome: { kind: 'spooled', reason: outcome.message }, replay };
  }

  /**
   * Replays the spool in order. `target` says where each entry goes: to the agent it was meant
   * for ('each'), to this sender's agent ('redirect', for `cronbeat spool flush --url`), or only
   * the entries meant for this sender's agent ('own', as ping and run do, so a pulse once sent
   * to a wrong --url never slows the next jobs down; `spool flush` still has it).
   */
  flush(waitMs = 0, target: 'each' | 'redirect' | 'own' = 'each'): Promise<ReplayResult> {
    // An agent that could not take one entry gets none of the later ones, so none overtakes it.
    const down = new Set<string>();
    return this.spool.replay(async (entry: SpoolEntry) => {
      if (target === 'own' && entry.baseUrl !== this.baseUrl) return 'unreachable';
      const baseUrl = target === 'redirect' ? this.baseUrl : entry.baseUrl;
      if (down.has(baseUrl)) return 'unreachable';
      const verdict = verdictOf(await sendPulse(baseUrl, entry.pulse, entry.sentAt));
      if (verdict === 'unreachable') down.add(baseUrl);
      return verdict;
    }, waitMs);
  }
}

function verdictOf(outcome: HttpOutcome): ReplayVerdict {
  return outcome.kind === 'ok' ? 'delivered' : outcome.kind === 'rejected' ? 'rejected' : 'unreachable';
}

/** Builds a PulseSender for a base URL and a data folder (where the spool lives). */
export function pulseSenderFor(baseUrl: string, dataDir: string): PulseSender {
  return new PulseSender(baseUrl, new Spool(dataDir));
}

/**
 * Notices about a delivery, one line each: only what needs attention (a pulse spooled or
 * refused), since cron mails whatever a job prints. `what` names the pulse, e.g. "start pulse".
 */
export function describeDelivery(delivery: Delivery, what: string): string[] {
  const lines: string[] = [];
  const { replay, outcome } = delivery;
  for (const entry of replay.rejected) lines.push(`dropped a spooled pulse for ${entry.pulse.token}: the agent refused it`);
  if (outcome.kind === 'spooled') {
    const waiting = replay.waiting.length + 1;
    lines.push(`${what} saved to the spool (${outcome.reason}); ${plural(waiting, 'pulse')} waiting, sent by the next ping or run or by \`cronbeat spool flush\``);
  }
  if (outcome.kind === 'rejected') lines.push(`${what} refused by the agent: ${outcome.reason}`);
  return lines;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
