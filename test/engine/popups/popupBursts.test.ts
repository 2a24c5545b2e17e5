import { describe, expect, it } from 'vitest';
import { burstingNotifier, type PopupTimers } from '../../../agent/engine/popups/popupBursts';
import type { Popup } from '../../../agent/engine/popups/notifier';
import { DIGEST_INTERVAL_MS, GROUP_WAIT_MS } from '../../../agent/domain/alerts/digest';

/*
 * 30 monitors failing at once raised 19 separate popups. Popups now fold like
 * channel messages: a few one by one, then one summary. Time is a variable the test moves; the
 * timer is a list the test runs.
 */

function harness() {
  const shown: Popup[] = [];
  const clock = { now: 1_000_000 };
  const pending: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  const timers: PopupTimers = {
    set: (run, delayMs) => {
      const timer = { at: clock.now + delayMs, run, cancelled: false };
      pending.push(timer);
      return timer;
    },
    clear: (handle) => {
      if (handle) (handle as { cancelled: boolean }).cancelled = true;
    },
  };
  const notifier = burstingNotifier({ show: (p) => shown.push(p) }, () => clock.now, timers);
  /** Moves the clock to `at`, running the timers due by then. */
  const advanceTo = (at: number) => {
    clock.now = at;
    for (const timer of pending.splice(0)) {
      if (timer.cancelled) continue;
      if (timer.at <= at) timer.run();
      else pending.push(timer);
    }
  };
  return { shown, clock, notifier, advanceTo };
}

const popup = (i: number): Popup => ({ title: `✗ job-${i} failed (exit 1)`, body: 'disk full', route: `/monitors/${i}` });

describe('popups in a burst', () => {
  it('30 failures one after another: three popups, then one summary naming the first of the rest', () => {
    const { shown, clock, notifier, advanceTo } = harness();
    const start = clock.now;
    for (let i = 1; i <= 30; i++) {
      notifier.show(popup(i));
      clock.now += 10;
    }
    expect(shown.map((p) => p.title)).toEqual(['✗ job-1 failed (exit 1)', '✗ job-2 failed (exit 1)', '✗ job-3 failed (exit 1)']);
    advanceTo(start + 30 + GROUP_WAIT_MS);
    expect(shown).toHaveLength(4);
    expect(shown[3]).toEqual({
      title: 'Cronbeat: 27 alerts at once',
      body: '✗ job-4 failed (exit 1) · ✗ job-5 failed (exit 1) · ✗ job-6 failed (exit 1) · ✗ job-7 failed (exit 1) · ✗ job-8 failed (exit 1) · and 22 more',
      route: '/notifications',
    });
  });

  it('a trickle after a summary waits at most the digest interval; a quiet minute later popups show at once again', () => {
    const { shown, clock, notifier, advanceTo } = harness();
    for (let i = 1; i <= 10; i++) notifier.show(popup(i));
    advanceTo(clock.now + GROUP_WAIT_MS);
    const summaryAt = clock.now;
    expect(shown).toHaveLength(4);
    notifier.show(popup(11));
    notifier.show(popup(12));
    advanceTo(summaryAt + DIGEST_INTERVAL_MS - 1);
    expect(shown).toHaveLength(4);
    advanceTo(summaryAt + DIGEST_INTERVAL_MS);
    expect(shown.map((p) => p.title).at(-1)).toBe('Cronbeat: 2 alerts at once');
    advanceTo(clock.now + 61_000);
    notifier.show(popup(13));
    expect(shown.at(-1)).toEqual(popup(13));
  });

  it('shows what it holds when the agent stops', () => {
    const { shown, notifier } = harness();
    for (let i = 1; i <= 5; i++) notifier.show(popup(i));
    expect(shown).toHaveLength(3);
    notifier.stop();
    expect(shown.at(-1)!.title).toBe('Cronbeat: 2 alerts at once');
  });
});
