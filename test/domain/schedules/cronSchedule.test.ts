import { describe, expect, it } from 'vitest';
import { nextRunAfter, previousRunBefore } from '../../../agent/domain/schedules/cronSchedule';

// Daylight saving as cron daemons do it (Vixie cron, cronie, Debian's
// cron): each fixed time of a skipped hour runs right after the jump (two skipped
// times are two runs there, at one due time), a job of a repeated hour runs once (at the first
// occurrence), and hourly and finer schedules run in every real hour.
//
// Switches of 2026: New York jumps from 02:00 EST to 03:00 EDT on 8 March (07:00Z) and back
// from 02:00 EDT to 01:00 EST on 1 November (06:00Z); London from 01:00 GMT to 02:00 BST on
// 29 March (01:00Z) and back from 02:00 BST to 01:00 GMT on 25 October (01:00Z); Lord Howe
// moves by half an hour: from 02:00 (+10:30) to 02:30 (+11:00) on 4 October (3 Oct 15:30Z),
// and from 02:00 (+11:00) back to 01:30 (+10:30) on 5 April (4 Apr 15:00Z).

const t = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace(':00.000Z', 'Z'));

/** Every run from `from` to `to`, found one after another with nextRunAfter. */
function runsBetween(schedule: string, timezone: string, from: string, to: string): string[] {
  const runs: string[] = [];
  for (let run = nextRunAfter(schedule, timezone, t(from)); run !== null && run <= t(to); run = nextRunAfter(schedule, timezone, run)) {
    runs.push(iso(run)!);
  }
  return runs;
}

describe('runs on daylight-saving days, one after another', () => {
  const table: Array<[string, string, string, string, string[], string]> = [
    // [zone, schedule, from, to, runs, why]
    ['America/New_York', '30 2 * * *', '2026-03-07T12:00:00Z', '2026-03-09T12:00:00Z', ['2026-03-08T07:00Z', '2026-03-09T06:30Z'], '02:30 skipped: at the jump, 03:00 EDT'],
    ['America/New_York', '0,30 2 * * *', '2026-03-08T00:00:00Z', '2026-03-08T12:00:00Z', ['2026-03-08T07:00Z'], 'both skipped times: cron starts two runs at the jump, one due time'],
    ['America/New_York', '30 3 * * *', '2026-03-08T00:00:00Z', '2026-03-08T12:00:00Z', ['2026-03-08T07:30Z'], '03:30 exists: unmoved'],
    ['America/New_York', '30 * * * *', '2026-03-08T05:00:00Z', '2026-03-08T09:00:00Z', ['2026-03-08T05:30Z', '2026-03-08T06:30Z', '2026-03-08T07:30Z', '2026-03-08T08:30Z'], 'hourly: no 02:30, then 03:30 EDT'],
    ['America/New_York', '*/20 2 * * *', '2026-03-08T00:00:00Z', '2026-03-09T12:00:00Z', ['2026-03-09T06:00Z', '2026-03-09T06:20Z', '2026-03-09T06:40Z'], 'wildcard minute in the skipped hour: none that day'],
    ['America/New_York', '30 1 * * *', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z', ['2026-11-01T05:30Z', '2026-11-02T06:30Z'], '01:30 twice: only the first (EDT)'],
    ['America/New_York', '0 * * * *', '2026-11-01T04:30:00Z', '2026-11-01T07:30:00Z', ['2026-11-01T05:00Z', '2026-11-01T06:00Z', '2026-11-01T07:00Z'], 'hourly: 01:00 EDT, 01:00 EST, 02:00 EST'],
    ['America/New_York', '15 * * * *', '2026-11-01T05:00:00Z', '2026-11-01T06:30:00Z', ['2026-11-01T05:15Z', '2026-11-01T06:15Z'], 'hourly: in both copies of the hour'],
    ['America/New_York', '*/30 1 * * *', '2026-11-01T04:50:00Z', '2026-11-01T07:00:00Z', ['2026-11-01T05:00Z', '2026-11-01T05:30Z', '2026-11-01T06:00Z', '2026-11-01T06:30Z'], 'wildcard minute: in both copies'],
    ['Europe/London', '30 1 * * *', '2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z', ['2026-03-29T01:00Z', '2026-03-30T00:30Z'], '01:30 skipped: at the jump, 02:00 BST'],
    ['Europe/London', '0 1 * * *', '2026-03-28T12:00:00Z', '2026-03-29T12:00:00Z', ['2026-03-29T01:00Z'], '01:00 itself skipped: at the jump'],
    ['Europe/London', '30 1 * * *', '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z', ['2026-10-25T00:30Z', '2026-10-26T01:30Z'], '01:30 twice: only the first (BST)'],
    ['Europe/London', '*/15 * * * *', '2026-03-29T00:40:00Z', '2026-03-29T01:20:00Z', ['2026-03-29T00:45Z', '2026-03-29T01:00Z', '2026-03-29T01:15Z'], 'every quarter: straight through the jump'],
    ['Australia/Lord_Howe', '15 2 * * *', '2026-10-03T00:00:00Z', '2026-10-05T00:00:00Z', ['2026-10-03T15:30Z', '2026-10-04T15:15Z'], '02:15 skipped: at the half-hour jump, 02:30'],
    ['Australia/Lord_Howe', '45 2 * * *', '2026-10-03T00:00:00Z', '2026-10-04T00:00:00Z', ['2026-10-03T15:45Z'], '02:45 exists: unmoved'],
    ['Australia/Lord_Howe', '45 1 * * *', '2026-04-04T00:00:00Z', '2026-04-06T00:00:00Z', ['2026-04-04T14:45Z', '2026-04-05T15:15Z'], '01:45 twice: only the first'],
    ['Australia/Lord_Howe', '45 * * * *', '2026-04-04T14:00:00Z', '2026-04-04T16:30:00Z', ['2026-04-04T14:45Z', '2026-04-04T15:15Z', '2026-04-04T16:15Z'], 'hourly: 01:45 twice, then 02:45'],
    ['Asia/Kolkata', '30 2 * * *', '2026-03-07T00:00:00Z', '2026-03-09T00:00:00Z', ['2026-03-07T21:00Z', '2026-03-08T21:00Z'], 'no switches: every day alike'],
  ];
  it.each(table)('%s %s from %s to %s', (timezone, schedule, from, to, runs) => {
    expect(runsBetween(schedule, timezone, from, to)).toEqual(runs);
  });
});

describe('the run before a time, on daylight-saving days', () => {
  const table: Array<[string, string, string, string, string]> = [
    // [zone, schedule, before, run, why]
    ['America/New_York', '30 2 * * *', '2026-03-08T07:00:01Z', '2026-03-08T07:00Z', 'the run at the jump'],
    ['America/New_York', '30 2 * * *', '2026-03-08T07:00:00Z', '2026-03-07T07:30Z', 'strictly before: the day before'],
    ['America/New_York', '30 1 * * *', '2026-11-01T06:40:00Z', '2026-11-01T05:30Z', 'after the repeated 01:30: still the first'],
    ['America/New_York', '30 * * * *', '2026-11-01T06:40:00Z', '2026-11-01T06:30Z', 'hourly: the repeated 01:30 EST'],
    ['Australia/Lord_Howe', '15 2 * * *', '2026-10-03T16:00:00Z', '2026-10-03T15:30Z', 'the run at the half-hour jump'],
    ['Europe/London', '30 1 * * *', '2026-10-25T01:40:00Z', '2026-10-25T00:30Z', 'after the repeated 01:30 GMT: the first (BST)'],
  ];
  it.each(table)('%s %s before %s is %s (%s)', (timezone, schedule, before, run) => {
    expect(iso(previousRunBefore(schedule, timezone, t(before)))).toBe(run);
  });

  it('agrees with nextRunAfter: the run before the run after a time is at or before it', () => {
    for (const [timezone, schedule] of [['America/New_York', '30 2 * * *'], ['America/New_York', '30 1 * * *'], ['Australia/Lord_Howe', '15 2 * * *'], ['Europe/London', '*/20 * * * *']]) {
      for (let at = t('2026-03-07T00:00:00Z'); at < t('2026-03-10T00:00:00Z'); at += 97 * 60_000) {
        const next = nextRunAfter(schedule, timezone, at)!;
        expect(previousRunBefore(schedule, timezone, next)!).toBeLessThanOrEqual(at);
      }
    }
  });
});
