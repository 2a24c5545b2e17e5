import type { Popup } from './popup';
import { alertMs, type Alert } from './alert';
import { OUTPUT_BOUNDS } from './messageLimits';
import { PROBLEM_WORDS, PROBLEMS, problemOf, type Problem } from './vocabulary';
import { alertTitle, alertTone, humanTime, lastLines, whatHappened } from './words';
import { describeDuration } from '../time/durations';

/** A monitor that failed or recovered, as popups tell it. */
export interface MonitorTransition {
  monitorId: number;
  name: string;
  kind: 'failed' | 'recovered';
  /** Which of the one vocabulary a failure is (failed, missed, stuck); absent: said as "failed". */
  problem?: Problem | null;
  /** The alert reason of a failure; what happened for a recovery. */
  detail: string;
  /** The alert as data, when there is one: the popup says what the job said. */
  alert?: Alert;
}

/** More transitions than this in one step make one summary popup instead of one each. */
export const MAX_SEPARATE_POPUPS = 3;
const NAMES_IN_SUMMARY = 5;

const MARKS = { bad: '✗', warn: '⚠', good: '✓', info: 'ℹ' } as const;

/**
 * A popup that says what the job said: "✗ nightly-backup failed (exit 3)" over
 * "disk full · 12 s · was due 03:00 Europe/Paris" (what happened in words when the job said nothing).
 */
export function alertPopup(alert: Alert, route: string): Popup {
  const zone = alert.monitor?.timezone ?? 'UTC';
  const said = lastLines(alert.run?.output_tail ?? null, OUTPUT_BOUNDS.popup.lines, OUTPUT_BOUNDS.popup.chars);
  const due = alertMs(alert.expected_at);
  const parts =
    said.length > 0
      ? [
          said.map((line) => line.trim()).join(' / '),
          alert.run?.duration_ms == null ? '' : describeDuration(alert.run.duration_ms),
          due === null ? '' : `was due ${humanTime(due, zone, { date: false })}`,
        ]
      : [whatHappened(alert, { adminZone: zone })];
  return { title: `${MARKS[alertTone(alert)]} ${alertTitle(alert)}`, body: parts.filter(Boolean).join(' · '), route };
}

export function transitionPopup(transition: MonitorTransition): Popup {
  if (transition.alert) return alertPopup(transition.alert, `/monitors/${transition.monitorId}`);
  return {
    title: `${transition.name} ${transition.kind}`,
    body: transition.detail,
    route: `/monitors/${transition.monitorId}`,
  };
}

function count(n: number, word: string): string {
  return `${n} ${n === 1 ? 'monitor' : 'monitors'} ${word}`;
}

function listNames(transitions: MonitorTransition[]): string {
  const names = transitions.slice(0, NAMES_IN_SUMMARY).map((t) => t.name);
  const more = transitions.length - names.length;
  return more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
}

/** One popup for many transitions, in the one vocabulary: "3 monitors missed, 2 failed: backup, db-dump, …". */
export function summaryPopup(transitions: MonitorTransition[], context = ''): Popup {
  const groups = [
    ...PROBLEMS.map((problem) => ({
      word: PROBLEM_WORDS[problem].word,
      label: PROBLEM_WORDS[problem].label,
      // Its problem as told, else as its alert says (a popup read back from the outbox), else "failed".
      members: transitions.filter((t) => t.kind === 'failed' && (t.problem ?? problemOf(t.alert?.reason) ?? 'failed') === problem),
    })),
    { word: 'recovered', label: 'Recovered', members: transitions.filter((t) => t.kind === 'recovered') },
  ].filter((group) => group.members.length > 0);
  const title = groups.map((group, i) => (i === 0 ? count(group.members.length, group.word) : `${group.members.length} ${group.word}`)).join(', ');
  const lines = [...groups.map((group) => `${group.label}: ${listNames(group.members)}`), context];
  return { title, body: lines.filter(Boolean).join('\n'), route: '/monitors' };
}

/**
 * The popups for what happened in one step: one per transition, or one summary when there
 * are more than MAX_SEPARATE_POPUPS. None for none.
 */
export function stepPopups(transitions: MonitorTransition[]): Popup[] {
  if (transitions.length > MAX_SEPARATE_POPUPS) return [summaryPopup(transitions)];
  return transitions.map(transitionPopup);
}

/** The one popup for monitors that failed after the grace Cronbeat gave them on resuming; null for none. */
export function gracePopup(failures: MonitorTransition[]): Popup | null {
  if (failures.length === 0) return null;
  return summaryPopup(failures, 'Their runs were due while Cronbeat was not running, and no pulse came since.');
}

/** What popups add when a failure cannot be recorded yet (warnUnrecorded in agent/engine/failOverdue.ts). */
export const CANNOT_WRITE_NOTE = 'Cronbeat cannot write its database (is the disk full?): this failure is recorded once it can.';

/** The popups for failures Cronbeat sees but cannot record: as stepPopups, each saying so. None for none. */
export function unrecordedFailurePopups(failures: MonitorTransition[]): Popup[] {
  if (failures.length > MAX_SEPARATE_POPUPS) return [summaryPopup(failures, CANNOT_WRITE_NOTE)];
  return failures.map((failure) => {
    const popup = transitionPopup(failure);
    return { ...popup, body: `${popup.body}\n${CANNOT_WRITE_NOTE}` };
  });
}
