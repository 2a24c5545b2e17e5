import { useEffect, useRef, useState } from 'react';
import type { Monitor } from '../api/types';
import { useApp } from '../lib/app-context';
import { describeError } from '../../../agent/domain/text/errorText';

const HOUR_MS = 3_600_000;

/** Tomorrow at 09:00 in the viewer's zone: the end of a night's maintenance. */
export function tomorrowMorning(now: Date): Date {
  const next = new Date(now);
  next.setDate(next.getDate() + 1);
  next.setHours(9, 0, 0, 0);
  return next;
}

/**
 * Pause, snooze and resume on a monitor's page. A paused monitor raises nothing; a snooze ends
 * by itself and the monitor is watched again from that moment.
 */
export function MonitorActions(props: { monitor: Monitor }) {
  const { api } = useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const m = props.monitor;
  const paused = m.status === 'paused';
  // The button pressed goes (disabled while it works, then replaced by Resume or Pause): a keyboard
  // user's focus would fall to the top of the page, so it goes to the button now in its place.
  const first = useRef<HTMLButtonElement>(null);
  const refocus = useRef<{ from: boolean; once: boolean } | null>(null);
  useEffect(() => {
    if (!refocus.current || busy) return;
    if (document.activeElement === null || document.activeElement === document.body) first.current?.focus();
    if (refocus.current.once || refocus.current.from !== paused) refocus.current = null;
  }, [paused, busy]);

  /** Runs the request of a button; a failure says what was not done ("Could not pause it: …"), which stays true once the agent is back. */
  const act = async (what: string, action: () => Promise<unknown>) => {
    refocus.current = { from: paused, once: false };
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      refocus.current.once = true;
      setError(`Could not ${what}: ${describeError(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const buttons =
    paused ? (
      <button ref={first} type="button" className="button button-primary" disabled={busy} onClick={() => act('resume it', () => api.resumeMonitor(m.id))}>
        Resume
      </button>
    ) : (
      <>
        <button ref={first} type="button" className="button" disabled={busy} onClick={() => act('pause it', () => api.pauseMonitor(m.id))}>
          Pause
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => act('snooze it', () => api.pauseMonitor(m.id, new Date(Date.now() + HOUR_MS).toISOString()))}
        >
          Snooze 1 h
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => act('snooze it', () => api.pauseMonitor(m.id, tomorrowMorning(new Date()).toISOString()))}
          title="Until 09:00 tomorrow"
        >
          Snooze until tomorrow
        </button>
      </>
    );
  return (
    <>
      {buttons}
      {error ? (
        <span className="text-bad" role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}
