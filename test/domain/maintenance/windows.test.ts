import { describe, expect, it } from 'vitest';
import {
  activeWindowAt,
  coversMonitor,
  eachSpanBetween,
  excusingWindowEnd,
  maintenanceReplanFrom,
  neverEndingGap,
  nextStart,
  opensWindows,
  windowEnd,
  pulseMoments,
  waitedRunOf,
  type MaintenanceWindow,
} from '../../../agent/domain/maintenance/windows';

const spansBetween = (...args: Parameters<typeof eachSpanBetween>) => [...eachSpanBetween(...args)];

const at = (iso: string) => Date.parse(iso);
const base = { monitorIds: [], tags: [], startsAt: null, endsAt: null, schedule: null, timezone: null, durationMinutes: null };
const oneOff: MaintenanceWindow = { ...base, id: 1, startsAt: at('2026-11-27T14:00:00Z'), endsAt: at('2026-11-27T15:00:00Z') };
const nightly: MaintenanceWindow = { ...base, id: 2, schedule: '0 2 * * *', timezone: 'Europe/Paris', durationMinutes: 120 };
const monitor = { id: 7, tags: ['db', 'prod'] };

describe('maintenance window rules', () => {
  it('covers the monitors named by id or by tag, and every monitor when naming none', () => {
    expect(coversMonitor(oneOff, monitor)).toBe(true);
    expect(coversMonitor({ ...oneOff, monitorIds: [7] }, monitor)).toBe(true);
    expect(coversMonitor({ ...oneOff, monitorIds: [8] }, monitor)).toBe(false);
    expect(coversMonitor({ ...oneOff, monitorIds: [8], tags: ['prod'] }, monitor)).toBe(true);
    expect(coversMonitor({ ...oneOff, tags: ['web'] }, monitor)).toBe(false);
  });

  it('lists its occurrences that overlap a period, one under way at its start included', () => {
    // Nightly 02:00-04:00 Paris (01:00-03:00 UTC), over 02:00 UTC on the 26th to 02:00 UTC on the 28th.
    expect(spansBetween(nightly, at('2026-11-26T02:00:00Z'), at('2026-11-28T02:00:00Z'))).toEqual([
      { start: at('2026-11-26T01:00:00Z'), end: at('2026-11-26T03:00:00Z') },
      { start: at('2026-11-27T01:00:00Z'), end: at('2026-11-27T03:00:00Z') },
      { start: at('2026-11-28T01:00:00Z'), end: at('2026-11-28T03:00:00Z') },
    ]);
    expect(spansBetween(nightly, at('2026-11-26T03:00:00Z'), at('2026-11-27T01:00:00Z'))).toEqual([]);
    expect(spansBetween(oneOff, at('2026-11-27T00:00:00Z'), at('2026-11-28T00:00:00Z'))).toEqual([{ start: oneOff.startsAt, end: oneOff.endsAt }]);
    expect(spansBetween(oneOff, at('2026-11-27T14:30:00Z'), at('2026-11-28T00:00:00Z'))).toEqual([{ start: oneOff.startsAt, end: oneOff.endsAt }]);
    expect(spansBetween(oneOff, at('2026-11-27T15:00:00Z'), at('2026-11-28T00:00:00Z'))).toEqual([]);
    expect(spansBetween(oneOff, at('2026-11-26T00:00:00Z'), at('2026-11-27T14:00:00Z'))).toEqual([]);
  });

  it('is under way from its start (inclusive) to its end (exclusive)', () => {
    expect(windowEnd(oneOff, at('2026-11-27T13:59:59.999Z'))).toBeNull();
    expect(windowEnd(oneOff, at('2026-11-27T14:00:00Z'))).toBe(at('2026-11-27T15:00:00Z'));
    expect(windowEnd(oneOff, at('2026-11-27T15:00:00Z'))).toBeNull();
    expect(activeWindowAt([oneOff, { ...oneOff, id: 3, endsAt: at('2026-11-27T16:00:00Z') }], monitor, at('2026-11-27T14:30:00Z'))?.end).toBe(
      at('2026-11-27T16:00:00Z'),
    );
    expect(activeWindowAt([{ ...oneOff, monitorIds: [8] }], monitor, at('2026-11-27T14:30:00Z'))).toBeNull();
  });

  it('recurring in Europe/Paris: 01:00–03:00 UTC in winter, and on the spring-forward night it opens at the jump', () => {
    expect(windowEnd(nightly, at('2026-03-28T00:59:00Z'))).toBeNull();
    expect(windowEnd(nightly, at('2026-03-28T01:00:00Z'))).toBe(at('2026-03-28T03:00:00Z'));
    // 02:00 does not exist on 2026-03-29: cron runs it at 03:00 CEST, 01:00 UTC; it lasts its 120 minutes.
    expect(nextStart(nightly, at('2026-03-28T12:00:00Z'))).toBe(at('2026-03-29T01:00:00Z'));
    expect(windowEnd(nightly, at('2026-03-29T02:59:00Z'))).toBe(at('2026-03-29T03:00:00Z'));
    // Summer: 02:00 CEST is 00:00 UTC.
    expect(nextStart(nightly, at('2026-03-29T12:00:00Z'))).toBe(at('2026-03-30T00:00:00Z'));
    expect(nextStart(oneOff, at('2026-11-27T14:00:00Z'))).toBeNull();
  });

  it('a run is not expected when the time from its due time to its deadline meets a window', () => {
    const run = (due: string, deadline: string) => ({ due: at(due), deadline: at(deadline) });
    const expected = (due: string, deadline: string) => excusingWindowEnd(run(due, deadline), [oneOff]) === null;
    expect(expected('2026-11-27T13:50:00Z', '2026-11-27T13:59:59Z')).toBe(true);
    expect(expected('2026-11-27T13:55:00Z', '2026-11-27T14:00:00Z')).toBe(false);
    expect(expected('2026-11-27T14:30:00Z', '2026-11-27T14:35:00Z')).toBe(false);
    expect(expected('2026-11-27T15:00:00Z', '2026-11-27T15:05:00Z')).toBe(true);
  });

  it('a run in progress is about its whole time from its start to when it was late; a run that did not come, its grace', () => {
    const started = at('2026-11-27T13:50:00Z');
    expect(waitedRunOf({ kind: 'stuck', startedAt: started, maxRuntimeMinutes: 30, deadline: at('2026-11-27T14:20:00Z') }, 3)).toEqual({ due: started, deadline: at('2026-11-27T14:20:00Z') });
    expect(waitedRunOf({ kind: 'not_finished', startedAt: started, runAt: at('2026-11-27T14:50:00Z'), deadline: at('2026-11-27T14:53:00Z') }, 3)).toEqual({ due: started, deadline: at('2026-11-27T14:53:00Z') });
    expect(waitedRunOf({ kind: 'no_pulse', runAt: started, deadline: at('2026-11-27T13:53:00Z') }, 3)).toEqual({ due: started, deadline: at('2026-11-27T13:53:00Z') });
    // A catch-up grace moves the deadline, not the stretch the run is about.
    expect(waitedRunOf({ kind: 'no_pulse', runAt: started, deadline: at('2026-11-27T16:03:00Z'), resumedAt: at('2026-11-27T16:00:00Z') }, 3).deadline).toBe(at('2026-11-27T13:53:00Z'));
  });

  it('judges a pulse by when it came and when it counts for, and one a little early for its run by that run', () => {
    const spec = { schedule: '*/10 * * * *', timezone: 'UTC' };
    expect(pulseMoments(spec, at('2026-11-27T14:59:35Z'), at('2026-11-27T14:59:35Z'))).toEqual([at('2026-11-27T15:00:00Z')]);
    expect(pulseMoments(spec, at('2026-11-27T15:01:00Z'), at('2026-11-27T14:55:00Z'))).toEqual([at('2026-11-27T15:01:00Z'), at('2026-11-27T14:55:00Z')]);
  });

  it('plans again from the end of the window the missed run met, under way or ended; null for a true miss', () => {
    const inside = { due: at('2026-11-27T14:40:00Z'), deadline: at('2026-11-27T15:10:00Z') };
    expect(maintenanceReplanFrom([oneOff], monitor, inside)).toBe(at('2026-11-27T15:00:00Z'));
    expect(maintenanceReplanFrom([{ ...oneOff, monitorIds: [8] }], monitor, inside)).toBeNull();
    // Due and late before the window opened: a true miss, also when Cronbeat only notices it during
    // the window (it was not running at the deadline), which used to excuse it.
    const before = { due: at('2026-11-27T13:00:00Z'), deadline: at('2026-11-27T13:05:00Z') };
    expect(maintenanceReplanFrom([oneOff], monitor, before)).toBeNull();
  });

  it('opens at the runs of a cron schedule or a calendar event, never of a period (it has no moment of its own)', () => {
    expect(opensWindows('0 3 * * 0')).toBe(true);
    expect(opensWindows('Sun 03:00')).toBe(true);
    expect(opensWindows('@every 1h')).toBe(false);
  });

  it('opens a calendar event\'s window each time the event elapses, in the window\'s zone, as systemd reads it', () => {
    const sundays: MaintenanceWindow = { ...base, id: 4, schedule: 'Sun 03:00', timezone: 'Europe/Paris', durationMinutes: 60 };
    // Sunday 29 November 2026, 03:00 in Paris is 02:00 UTC.
    expect(nextStart(sundays, at('2026-11-27T13:00:00Z'))).toBe(at('2026-11-29T02:00:00Z'));
    expect(windowEnd(sundays, at('2026-11-29T01:59:59Z'))).toBeNull();
    expect(windowEnd(sundays, at('2026-11-29T02:30:00Z'))).toBe(at('2026-11-29T03:00:00Z'));
    expect(windowEnd(sundays, at('2026-11-29T03:00:00Z'))).toBeNull();
    // Several events, one a line, as a timer's OnCalendar= lines; a line's own zone wins.
    const twice: MaintenanceWindow = { ...sundays, schedule: 'Sun 03:00\nWed 12:00 UTC' };
    expect(windowEnd(twice, at('2026-12-02T12:10:00Z'))).toBe(at('2026-12-02T13:00:00Z'));
  });

  it('never ends when an occurrence lasts as long as the longest time between two openings', () => {
    const now = at('2026-11-27T13:00:00Z');
    expect(neverEndingGap('0 * * * *', 60, now)).toBe(60);
    expect(neverEndingGap('0 * * * *', 59, now)).toBeNull();
    // Sunday to Wednesday is 3 days, Wednesday to Sunday 4: it closes until a window lasts 4 days.
    expect(neverEndingGap('0 3 * * 0,3', 4 * 1440 - 1, now)).toBeNull();
    expect(neverEndingGap('0 3 * * 0,3', 4 * 1440, now)).toBe(4 * 1440);
    // Every day of January only: eleven months closed, whatever month it is now.
    expect(neverEndingGap('0 0 * 1 *', 7 * 1440, now)).toBeNull();
    expect(neverEndingGap('0 0 * 1 *', 7 * 1440, at('2027-01-15T00:00:00Z'))).toBeNull();
    expect(neverEndingGap('0 0 29 2 *', 7 * 1440, now)).toBeNull();
  });

  it('never ends, for a calendar event, on the same rule, read from its runs', () => {
    const now = at('2026-11-27T13:00:00Z');
    expect(neverEndingGap('*:0/5', 5, now)).toBe(5);
    expect(neverEndingGap('*:0/5', 4, now)).toBeNull();
    // Seconds apart: no window of whole minutes closes between them.
    expect(neverEndingGap('*:*:0/30', 1, now)).toBe(1);
    expect(neverEndingGap('*:*:00,50', 1, now)).toBe(1);
    expect(neverEndingGap('*:0/2:30', 1, now)).toBeNull();
    expect(neverEndingGap('Sun,Wed 03:00', 4 * 1440, now)).toBe(4 * 1440);
    expect(neverEndingGap('Sun,Wed 03:00', 4 * 1440 - 1, now)).toBeNull();
    // Every five minutes on weekdays: the weekend is free.
    expect(neverEndingGap('Mon..Fri *:0/5', 2 * 1440, now)).toBeNull();
    // One that runs once (a date) opens once and closes: nothing to reopen.
    expect(neverEndingGap('2026-12-24 18:00', 7 * 1440, now)).toBeNull();
    // Openings read up to a bound: every minute of every month but January is never seen to close.
    expect(neverEndingGap('*-02..12-* *:*', 10, now)).toBe(1);
  });
});
