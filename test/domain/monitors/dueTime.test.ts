import { describe, expect, it } from 'vitest';
import { nextRunAfter, previousRunBefore } from '../../../agent/domain/schedules/cronSchedule';
import {
  dueTimeKeepingGrace,
  defaultGraceMinutes,
  dueAt,
  dueTimeAt,
  expectedRunAfter,
  nextDeadline,
  nextStepAt,
  runAnsweredBy,
  outageGraces,
  withCatchUpGrace,
  type MonitorTiming,
} from '../../../agent/domain/monitors/dueTime';

const t = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// Switch days of 2026: New York springs forward on 8 March at 02:00 EST (07:00Z) and falls
// back on 1 November at 02:00 EDT (06:00Z); London springs forward on 29 March at 01:00 GMT
// (01:00Z) and falls back on 25 October at 02:00 BST (01:00Z); Kolkata (+05:30) never moves.
describe('the run expected after an answered run, on daylight-saving switch days', () => {
  const table: Array<[string, string, string, string, string]> = [
    // [zone, schedule, answered run, expected run, why]
    ['America/New_York', '30 2 * * *', '2026-03-07T07:30:00Z', '2026-03-08T07:00:00.000Z', '02:30 does not exist: runs at the jump, 03:00 EDT'],
    ['America/New_York', '30 2 * * *', '2026-03-08T07:00:00Z', '2026-03-09T06:30:00.000Z', 'back to 02:30 EDT the day after'],
    ['America/New_York', '0 * * * *', '2026-03-08T06:00:00Z', '2026-03-08T07:00:00.000Z', 'hourly: 01:00 EST then 03:00 EDT'],
    ['America/New_York', '0 9 * * *', '2026-03-07T14:00:00Z', '2026-03-08T13:00:00.000Z', '09:00 is an hour earlier in UTC'],
    ['America/New_York', '30 1 * * *', '2026-10-31T05:30:00Z', '2026-11-01T05:30:00.000Z', '01:30 repeats: the first one (EDT)'],
    ['America/New_York', '30 1 * * *', '2026-11-01T05:30:00Z', '2026-11-02T06:30:00.000Z', 'the repeated 01:30 EST is not a second run'],
    ['America/New_York', '0 * * * *', '2026-11-01T05:00:00Z', '2026-11-01T06:00:00.000Z', 'hourly: 01:00 EDT then 01:00 EST'],
    ['America/New_York', '*/30 * * * *', '2026-11-01T05:30:00Z', '2026-11-01T06:00:00.000Z', 'every half hour through the repeat'],
    ['Europe/London', '30 1 * * *', '2026-03-28T01:30:00Z', '2026-03-29T01:00:00.000Z', '01:30 does not exist: runs at the jump, 02:00 BST'],
    ['Europe/London', '30 1 * * *', '2026-03-29T01:00:00Z', '2026-03-30T00:30:00.000Z', 'back to 01:30 BST the day after'],
    ['Europe/London', '0 9 * * *', '2026-03-28T09:00:00Z', '2026-03-29T08:00:00.000Z', '09:00 BST is 08:00Z'],
    ['Europe/London', '30 1 * * *', '2026-10-24T00:30:00Z', '2026-10-25T00:30:00.000Z', '01:30 repeats: the first one (BST)'],
    ['Europe/London', '30 1 * * *', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00.000Z', 'the repeated 01:30 GMT is not a second run'],
    ['Europe/London', '0 * * * *', '2026-10-25T00:00:00Z', '2026-10-25T01:00:00.000Z', 'hourly: 01:00 BST then 01:00 GMT'],
    ['Asia/Kolkata', '0 0 * * *', '2026-03-07T18:30:00Z', '2026-03-08T18:30:00.000Z', 'midnight IST is 18:30Z the day before'],
    ['Asia/Kolkata', '30 5 * * *', '2026-03-08T00:00:00Z', '2026-03-09T00:00:00.000Z', '05:30 IST is midnight UTC'],
    ['Asia/Kolkata', '15 * * * *', '2026-10-25T00:45:00Z', '2026-10-25T01:45:00.000Z', 'a quarter past in IST is :45 in UTC'],
    ['Asia/Kolkata', '0 9 * * *', '2026-03-28T03:30:00Z', '2026-03-29T03:30:00.000Z', 'unmoved by Europe switching'],
    ['UTC', '0 0 29 2 *', '2026-03-01T00:00:00Z', '2028-02-29T00:00:00.000Z', 'leap day waits for a leap year'],
  ];
  it.each(table)('%s %s after %s is %s (%s)', (timezone, schedule, answered, expected) => {
    expect(iso(expectedRunAfter({ schedule, timezone }, t(answered)))).toBe(expected);
  });

  it('has no run for an impossible date or an unknown zone', () => {
    expect(nextRunAfter('0 0 31 4 *', 'UTC', t('2026-01-01T00:00:00Z'))).toBeNull();
    expect(nextRunAfter('0 0 * * *', 'Mars/Olympus_Mons', t('2026-01-01T00:00:00Z'))).toBeNull();
  });
});

describe('which run a pulse answers', () => {
  const table: Array<[string, string, string, string | null, string]> = [
    // [zone, schedule, pulse, answered run, why]
    ['UTC', '0 * * * *', '2026-11-21T10:07:00Z', '2026-11-21T10:00:00.000Z', 'late pulse: the run before'],
    ['UTC', '0 * * * *', '2026-11-21T10:00:00Z', '2026-11-21T10:00:00.000Z', 'exactly on the run'],
    ['UTC', '0 * * * *', '2026-11-21T09:59:00Z', '2026-11-21T10:00:00.000Z', 'one minute early counts for the run'],
    ['UTC', '0 * * * *', '2026-11-21T09:58:59Z', '2026-11-21T09:00:00.000Z', 'more than a minute early: the run before'],
    ['UTC', '* * * * *', '2026-11-21T10:00:30Z', '2026-11-21T10:01:00.000Z', 'every minute: up to half the gap (30 s) early'],
    ['UTC', '* * * * *', '2026-11-21T10:00:29Z', '2026-11-21T10:00:00.000Z', 'every minute: 31 s early is the run before'],
    ['UTC', '*/5 * * * *', '2026-11-21T10:04:05Z', '2026-11-21T10:05:00.000Z', 'every five minutes: a minute early still counts'],
    ['America/New_York', '0 * * * *', '2026-11-01T05:59:30Z', '2026-11-01T06:00:00.000Z', 'early for the repeated 01:00 EST'],
    ['America/New_York', '0 * * * *', '2026-03-08T06:59:10Z', '2026-03-08T07:00:00.000Z', 'early for 03:00 EDT right after the gap'],
    ['Europe/London', '30 1 * * *', '2026-03-29T00:59:30Z', '2026-03-29T01:00:00.000Z', 'early for the 01:30 run moved to the jump (02:00 BST)'],
    ['Asia/Kolkata', '0 0 * * *', '2026-03-07T18:29:30Z', '2026-03-07T18:30:00.000Z', 'early for midnight IST'],
    ['Asia/Kolkata', '0 0 * * *', '2026-03-07T18:31:00Z', '2026-03-07T18:30:00.000Z', 'late for midnight IST'],
  ];
  it.each(table)('%s %s pulse at %s answers %s (%s)', (timezone, schedule, pulse, answered) => {
    expect(iso(runAnsweredBy({ schedule, timezone }, t(pulse)))).toBe(answered);
  });

  it('allows one minute early, or half the gap between runs when shorter', () => {
    const answers = (schedule: string, pulse: string) => iso(runAnsweredBy({ schedule, timezone: 'UTC' }, t(pulse)));
    expect(answers('0 * * * *', '2026-11-21T09:59:00Z')).toBe('2026-11-21T10:00:00.000Z');
    expect(answers('0 * * * *', '2026-11-21T09:58:59.999Z')).toBe('2026-11-21T09:00:00.000Z');
    expect(answers('* * * * *', '2026-11-21T09:59:30Z')).toBe('2026-11-21T10:00:00.000Z');
    expect(answers('* * * * *', '2026-11-21T09:59:29.999Z')).toBe('2026-11-21T09:59:00.000Z');
    // Runs at :00 and :01: half the gap before :01, a whole minute before :00 (the run before it was 59 minutes earlier).
    expect(answers('0,1 * * * *', '2026-11-21T10:00:30Z')).toBe('2026-11-21T10:01:00.000Z');
    expect(answers('0,1 * * * *', '2026-11-21T10:00:29.999Z')).toBe('2026-11-21T10:00:00.000Z');
    expect(answers('0,1 * * * *', '2026-11-21T09:59:00Z')).toBe('2026-11-21T10:00:00.000Z');
    // No run before the coming one (a one-off date): only a pulse at the run itself counts for it.
    expect(answers('2026-11-21 10:00', '2026-11-21T09:59:59Z')).toBeNull();
    expect(answers('2026-11-21 10:00', '2026-11-21T10:00:00Z')).toBe('2026-11-21T10:00:00.000Z');
  });
});

describe('the deadline', () => {
  const base: MonitorTiming = {
    schedule: '0 10 * * *',
    timezone: 'Europe/Paris',
    durationMinutes: 5,
    expectedRunAt: t('2026-11-21T09:00:00Z'),
    runningSince: null,
    isAlerted: false,
    graceFrom: null,
  };

  it('is the expected run plus the duration', () => {
    expect(iso(dueAt(base))).toBe('2026-11-21T09:05:00.000Z');
    expect(nextDeadline(base)).toEqual({ kind: 'no_pulse', runAt: t('2026-11-21T09:00:00Z'), deadline: t('2026-11-21T09:05:00Z') });
  });

  it('gives a started run without a max run time until the next run is due, never just the grace', () => {
    const running = { ...base, expectedRunAt: t('2026-11-21T09:10:00Z'), runningSince: t('2026-11-21T08:58:00Z') };
    expect(nextDeadline(running)).toEqual({
      kind: 'not_finished',
      startedAt: t('2026-11-21T08:58:00Z'),
      runAt: t('2026-11-21T09:10:00Z'),
      deadline: t('2026-11-21T09:15:00Z'),
    });
  });

  it('makes a started run with a max run time stuck at its start plus that, even past the next run', () => {
    const running = { ...base, expectedRunAt: t('2026-11-21T09:10:00Z'), runningSince: t('2026-11-21T08:58:00Z'), maxRuntimeMinutes: 30 };
    expect(nextDeadline(running)).toEqual({
      kind: 'stuck',
      startedAt: t('2026-11-21T08:58:00Z'),
      maxRuntimeMinutes: 30,
      deadline: t('2026-11-21T09:28:00Z'),
    });
    expect(nextDeadline({ ...running, maxRuntimeMinutes: 2 })?.deadline).toBe(t('2026-11-21T09:00:00Z'));
  });

  it('is none while failed or when the schedule has no run', () => {
    expect(dueAt({ ...base, isAlerted: true })).toBeNull();
    expect(dueAt({ ...base, expectedRunAt: null })).toBeNull();
    expect(dueAt({ ...base, expectedRunAt: null, runningSince: t('2026-11-21T08:00:00Z') })).toBeNull();
    expect(dueAt({ ...base, expectedRunAt: null, runningSince: t('2026-11-21T08:00:00Z'), maxRuntimeMinutes: 20 })).toBe(t('2026-11-21T08:20:00Z'));
  });

  it('gets a fresh grace of the duration when Cronbeat resumes after it passed', () => {
    const resumedAt = t('2026-11-21T12:00:00Z');
    const graced = withCatchUpGrace(base, resumedAt);
    expect(graced.graceFrom).toBe(resumedAt);
    expect(nextDeadline(graced)).toEqual({ kind: 'no_pulse', runAt: base.expectedRunAt, deadline: t('2026-11-21T12:05:00Z'), resumedAt });
  });

  it('gets no grace when its deadline is still ahead, or when failed', () => {
    expect(withCatchUpGrace(base, t('2026-11-21T09:04:00Z'))).toBe(base);
    const failed = { ...base, isAlerted: true };
    expect(withCatchUpGrace(failed, t('2026-11-21T12:00:00Z'))).toBe(failed);
  });

  it('is stored with the catch-up grace news worked out late gives it, the one rule of pulses, resumes, maintenance and outages', () => {
    expect(dueTimeAt(base, t('2026-11-21T09:04:00Z'))).toEqual({ graceFrom: null, dueAt: t('2026-11-21T09:05:00Z') });
    expect(dueTimeAt(base, t('2026-11-21T12:00:00Z'))).toEqual({ graceFrom: t('2026-11-21T12:00:00Z'), dueAt: t('2026-11-21T12:05:00Z') });
    expect(dueTimeAt({ ...base, isAlerted: true }, t('2026-11-21T12:00:00Z'))).toEqual({ graceFrom: null, dueAt: null });
  });
});

describe('when the loop\'s next step has work', () => {
  it('is just after the earliest due time, since a monitor fails once its due time has passed; none when nothing is due', () => {
    expect(nextStepAt([t('2026-11-21T09:05:00Z'), null, t('2026-11-21T09:01:00Z')])).toBe(t('2026-11-21T09:01:00.001Z'));
    expect(nextStepAt([null, null, null])).toBeNull();
    expect(nextStepAt([])).toBeNull();
  });
});

describe('which monitors an outage graces', () => {
  const to = t('2026-11-21T10:00:30Z');
  it('at a start: every deadline already passed', () => {
    expect(outageGraces(t('2026-11-20T10:00:00Z'), null, { from: null, to })).toBe(true);
    expect(outageGraces(to, null, { from: null, to })).toBe(false);
  });

  it('after a freeze: only deadlines that passed during it, and a grace\'s end only after a long outage', () => {
    const freeze = { from: t('2026-11-21T10:00:00Z'), to };
    expect(outageGraces(t('2026-11-21T10:00:10Z'), null, freeze)).toBe(true);
    expect(outageGraces(t('2026-11-21T09:59:59Z'), null, freeze)).toBe(false); // Cronbeat was running: a true miss
    expect(outageGraces(t('2026-11-21T10:00:10Z'), t('2026-11-21T09:59:10Z'), freeze)).toBe(false); // no second grace from a stall
    const sleep = { from: t('2026-11-21T09:00:00Z'), to };
    expect(outageGraces(t('2026-11-21T09:30:00Z'), t('2026-11-21T09:25:00Z'), sleep)).toBe(true);
  });
});

describe('runs near a spring-forward switch, whatever the search starts from', () => {
  const table: Array<[string, string, string, string, string]> = [
    // [zone, schedule, after, next run, why]
    ['America/New_York', '30 2 * * *', '2026-03-08T06:59:00Z', '2026-03-08T07:00:00.000Z', 'a minute before the switch: at the jump'],
    ['America/New_York', '30 2 * * *', '2026-03-08T07:10:00Z', '2026-03-09T06:30:00.000Z', 'just after the jump: the day after'],
    ['America/New_York', '30 2 * * *', '2026-03-08T07:00:00Z', '2026-03-09T06:30:00.000Z', 'right on the run at the jump'],
    ['Europe/London', '30 1 * * *', '2026-03-29T00:29:30Z', '2026-03-29T01:00:00.000Z', 'half an hour before the jump'],
    ['Europe/London', '* * * * *', '2026-03-29T01:00:30Z', '2026-03-29T01:01:00.000Z', 'every minute goes on'],
  ];
  it.each(table)('%s %s after %s is %s (%s)', (timezone, schedule, after, expected) => {
    expect(iso(nextRunAfter(schedule, timezone, t(after)))).toBe(expected);
  });

  it('finds the run moved to the jump as the run before a time just after it', () => {
    expect(iso(previousRunBefore('30 2 * * *', 'America/New_York', t('2026-03-08T07:40:00Z')))).toBe('2026-03-08T07:00:00.000Z');
    expect(iso(previousRunBefore('30 1 * * *', 'Europe/London', t('2026-03-29T01:40:00Z')))).toBe('2026-03-29T01:00:00.000Z');
    expect(iso(previousRunBefore('0 9 * * *', 'Europe/London', t('2026-03-29T08:30:00Z')))).toBe('2026-03-29T08:00:00.000Z');
  });
});

describe('the default grace of a schedule: its own period, capped at an hour', () => {
  const from = t('2026-11-23T10:07:00Z');
  it.each([
    ['*/5 * * * *', 5],
    ['* * * * *', 1],
    ['*/15 9-17 * * 1-5', 15],
    ['0,30 2 * * *', 30],
    ['0 * * * *', 60],
    ['0 3 * * *', 60],
    ['0 9,17 * * *', 60],
    ['0 9 1 * *', 60],
  ])('%s gets %i minutes', (schedule, minutes) => {
    expect(defaultGraceMinutes(schedule, from)).toBe(minutes);
  });
});

describe('a monitor planned again by maintenance while a catch-up grace is in course', () => {
  const t = (hhmm: string) => Date.parse(`2026-11-27T${hhmm}:00Z`);
  const timing = { schedule: '*/10 * * * *', timezone: 'UTC', durationMinutes: 3, expectedRunAt: t('15:00'), runningSince: null, isAlerted: false, graceFrom: null };
  it('keeps the grace it had from the resume, never a new one from the replan', () => {
    expect(dueTimeKeepingGrace(timing, t('15:01'))).toEqual({ graceFrom: t('15:01'), dueAt: t('15:04') });
  });
  it('without one, gives none: a deadline already past stays past', () => {
    expect(dueTimeKeepingGrace(timing, null)).toEqual({ graceFrom: null, dueAt: t('15:03') });
    expect(dueTimeKeepingGrace({ ...timing, expectedRunAt: t('15:10') }, null)).toEqual({ graceFrom: null, dueAt: t('15:13') });
  });
});
