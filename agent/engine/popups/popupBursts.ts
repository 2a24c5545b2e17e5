import { burstDecision, BURST_WINDOW_MS } from '../../domain/alerts/digest';
import type { Notifier, Popup } from './notifier';

/** How many held popups a summary names before "and N more". */
const NAMED_IN_SUMMARY = 5;

/** Timers, passed in so tests move time themselves. */
export interface PopupTimers {
  set(run: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: PopupTimers = {
  set: (run, delayMs) => setTimeout(run, Math.max(0, delayMs)).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** One popup for many held ones: "12 alerts at once" over the first titles and how many more. */
export function burstSummaryPopup(held: Popup[]): Popup {
  const named = held.slice(0, NAMED_IN_SUMMARY).map((p) => p.title);
  const more = held.length - named.length;
  return {
    title: `Cronbeat: ${held.length} alerts at once`,
    body: `${named.join(' · ')}${more > 0 ? ` · and ${more} more` : ''}`,
    route: '/notifications',
  };
}

/**
 * Popups fold like channel messages (agent/domain/alerts/digest.ts): a few a minute show one by one;
 * past that they are held together and shown as one summary, after the burst's group wait and at
 * most once per digest interval. `inner` shows them; a popup that is already a summary of a step
 * counts as one. stop() shows what is held (the agent is closing) and cancels the timer.
 */
export function burstingNotifier(inner: Notifier, clock: () => number, timers: PopupTimers = realTimers): Notifier & { stop(): void } {
  let shownAt: number[] = [];
  let lastSummaryAt: number | null = null;
  let held: Array<{ popup: Popup; at: number }> = [];
  let timer: unknown = null;

  const showNow = (popup: Popup, now: number) => {
    shownAt.push(now);
    inner.show(popup);
  };
  const flush = () => {
    timers.clear(timer);
    timer = null;
    if (held.length === 0) return;
    const now = clock();
    const popups = held.map((h) => h.popup);
    held = [];
    if (popups.length === 1) return showNow(popups[0], now);
    lastSummaryAt = now;
    showNow(burstSummaryPopup(popups), now);
  };
  const decide = () => {
    const now = clock();
    shownAt = shownAt.filter((at) => at >= now - BURST_WINDOW_MS);
    const decision = burstDecision({ recentSends: shownAt.length, lastDigestAt: lastSummaryAt, waiting: held.length, oldestWaitingAt: held[0].at }, now);
    if (decision.action === 'send' && held.length === 1) {
      const [{ popup }] = held;
      held = [];
      return showNow(popup, now);
    }
    if (decision.action === 'hold') {
      timers.clear(timer);
      timer = timers.set(() => decide(), decision.until - now);
      return;
    }
    flush();
  };

  return {
    show(popup) {
      held.push({ popup, at: clock() });
      decide();
    },
    stop: flush,
  };
}
