import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextRunAfter, previousRunBefore } from '../../../agent/domain/schedules/cronSchedule';
import { NEAR_SWITCH_MS, rememberedRuns } from '../../../agent/domain/schedules/runCache';
import { offsetSwitchesBetween } from '../../../agent/domain/time/zoneOffsets';

const t = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const NY = 'America/New_York';

describe('offset switches of a zone', () => {
  it('are found to the millisecond, twice a year in New York and never in UTC or Kolkata', () => {
    expect(offsetSwitchesBetween(NY, t('2026-01-01T00:00:00Z'), t('2027-12-31T00:00:00Z')).map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-11-01T06:00:00.000Z',
      '2027-03-14T07:00:00.000Z',
      '2027-11-07T06:00:00.000Z',
    ]);
    expect(offsetSwitchesBetween('UTC', t('2024-01-01T00:00:00Z'), t('2028-12-31T00:00:00Z'))).toEqual([]);
    expect(offsetSwitchesBetween('Asia/Kolkata', t('2024-01-01T00:00:00Z'), t('2028-12-31T00:00:00Z'))).toEqual([]);
  });

  it('include both ends of the range', () => {
    const spring = t('2026-03-08T07:00:00Z');
    expect(offsetSwitchesBetween(NY, spring, spring)).toEqual([spring]);
    expect(offsetSwitchesBetween(NY, spring + 1, spring + HOUR)).toEqual([]);
  });
});

/*
 * A stand-in schedule in New York whose answers, like cron-parser's, depend on where the search
 * starts near a switch: runs on the 1st of every fourth month at 05:00Z, plus a "shifted" run
 * 30 min after each switch that only a question asked within 3 h after the switch sees.
 */
const runs = Array.from({ length: 40 }, (_, i) => Date.UTC(2025 + Math.floor(i / 3), (i % 3) * 4, 1, 5));
const switches = offsetSwitchesBetween(NY, runs[0], runs[runs.length - 1]);
const seesShifted = (at: number) => switches.find((s) => at >= s && at < s + 3 * HOUR);
function fakeNext(_schedule: string, _zone: string, at: number): number | null {
  const plain = runs.find((run) => run > at) ?? null;
  const shifted = seesShifted(at);
  return shifted !== undefined && shifted + HOUR / 2 > at && (plain === null || shifted + HOUR / 2 < plain) ? shifted + HOUR / 2 : plain;
}
function fakePrevious(_schedule: string, _zone: string, at: number): number | null {
  const plain = runs.findLast((run) => run < at) ?? null;
  const shifted = seesShifted(at - 1);
  return shifted !== undefined && shifted + HOUR / 2 < at && (plain === null || shifted + HOUR / 2 > plain) ? shifted + HOUR / 2 : plain;
}

function counted(compute: typeof fakeNext) {
  const calls = { count: 0 };
  const wrapped = (schedule: string, zone: string, at: number) => (calls.count++, compute(schedule, zone, at));
  return { calls, wrapped };
}

describe('remembered run-free stretches', () => {
  it('remember a stretch of months: every time inside it gets its run without a new search', () => {
    const { calls, wrapped } = counted(fakeNext);
    const next = rememberedRuns('to', wrapped);
    const from = t('2026-05-01T06:00:00Z');
    expect(next('s', NY, from)).toBe(t('2026-09-01T05:00:00Z'));
    for (const at of [from + 1, t('2026-07-04T12:00:00Z'), t('2026-09-01T04:59:59.999Z')]) expect(next('s', NY, at)).toBe(t('2026-09-01T05:00:00Z'));
    expect(calls.count).toBe(1);
    // The run itself starts the next stretch.
    expect(next('s', NY, t('2026-09-01T05:00:00Z'))).toBe(t('2027-01-01T05:00:00Z'));
    expect(calls.count).toBe(2);
  });

  it('remember the last run before a time across a stretch of months', () => {
    const { calls, wrapped } = counted(fakePrevious);
    const previous = rememberedRuns('from', wrapped);
    expect(previous('s', NY, t('2026-08-31T00:00:00Z'))).toBe(t('2026-05-01T05:00:00Z'));
    expect(previous('s', NY, t('2026-05-01T05:00:00.001Z'))).toBe(t('2026-05-01T05:00:00Z'));
    expect(calls.count).toBe(1);
    // Later than anything remembered: searched, then merged into the same stretch.
    expect(previous('s', NY, t('2026-09-01T05:00:00Z'))).toBe(t('2026-05-01T05:00:00Z'));
    expect(previous('s', NY, t('2026-08-31T12:00:00Z'))).toBe(t('2026-05-01T05:00:00Z'));
    expect(calls.count).toBe(2);
  });

  it('search again near a daylight-saving switch inside a remembered stretch, where the answer depends on the start', () => {
    const next = rememberedRuns('to', fakeNext);
    const spring = t('2026-03-08T07:00:00Z');
    expect(next('s', NY, t('2026-01-02T00:00:00Z'))).toBe(t('2026-05-01T05:00:00Z'));
    expect(next('s', NY, spring + HOUR / 4)).toBe(spring + HOUR / 2);
    expect(next('s', NY, spring + HOUR)).toBe(t('2026-05-01T05:00:00Z'));
    expect(next('s', NY, spring + NEAR_SWITCH_MS + 1)).toBe(t('2026-05-01T05:00:00Z'));
  });

  it('never remember an answer given near a switch for times away from it', () => {
    const { calls, wrapped } = counted(fakeNext);
    const next = rememberedRuns('to', wrapped);
    const spring = t('2026-03-08T07:00:00Z');
    expect(next('s', NY, spring + HOUR / 4)).toBe(spring + HOUR / 2);
    expect(next('s', NY, spring + HOUR / 3)).toBe(spring + HOUR / 2);
    expect(calls.count).toBe(2);
  });

  it('answer exactly as the search would, whatever the order of the questions', () => {
    const start = runs[0];
    const end = runs[runs.length - 2];
    // Times anywhere, and times crowded around switches and runs, where answers change.
    const near = fc.tuple(fc.constantFrom(...switches, ...runs), fc.integer({ min: -8 * HOUR, max: 8 * HOUR })).map(([a, d]) => a + d);
    const at = fc.oneof(fc.integer({ min: start, max: end }), near);
    fc.assert(
      fc.property(fc.array(at, { minLength: 1, maxLength: 60 }), (times) => {
        const next = rememberedRuns('to', fakeNext);
        const previous = rememberedRuns('from', fakePrevious);
        for (const time of times) {
          expect(next('s', NY, time)).toBe(fakeNext('s', NY, time));
          expect(previous('s', NY, time)).toBe(fakePrevious('s', NY, time));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keep schedules and zones apart', () => {
    const next = rememberedRuns('to', (schedule, zone, at) => (schedule === 'a' ? at + 1000 : zone === 'UTC' ? at + 2000 : at + 3000));
    expect(next('a', 'UTC', 0)).toBe(1000);
    expect(next('b', 'UTC', 0)).toBe(2000);
    expect(next('b', NY, 0)).toBe(3000);
    expect(next('a', 'UTC', 500)).toBe(1000);
  });

  it('keep the stretch pulses ask about while a burst asks about three other runs of the same schedule', () => {
    const { calls, wrapped } = counted(fakeNext);
    const next = rememberedRuns('to', wrapped);
    const now = t('2026-05-01T06:00:00Z');
    expect(next('s', NY, now)).toBe(t('2026-09-01T05:00:00Z'));
    // The loop failing a burst asks about runs a year back (missed runs of monitors long overdue).
    for (const before of ['2025-01-15T00:00:00Z', '2025-05-15T00:00:00Z', '2025-09-15T00:00:00Z']) next('s', NY, t(before));
    const asked = calls.count;
    for (let i = 1; i <= 100; i++) expect(next('s', NY, now + i * 60_000)).toBe(t('2026-09-01T05:00:00Z'));
    expect(calls.count).toBe(asked);
  });
});

describe('rare schedules with real cron-parser, asked in any order', () => {
  // Each pair names the same runs in two spellings, so each has its own memory: one is asked
  // forwards, the other backwards, and both must agree at every time.
  const pairs: Array<[string, string]> = [
    ['0 0 1 1 *', '0 0 1 JAN *'],
    ['0 0 29 2 *', '0 0 29 FEB *'],
    ['30 2 8 3 *', '30 2 8 MAR *'], // 8 March 2026 is New York's spring-forward day: 02:30 does not exist
    ['30 1 1 11 *', '30 1 1 NOV *'], // 1 November 2026 is the fall-back day: 01:30 happens twice
  ];
  const times = [
    '2025-11-23T12:00:00Z',
    '2026-01-01T04:59:59Z',
    '2026-01-01T05:00:00Z',
    '2026-03-08T06:59:00Z',
    '2026-03-08T07:10:00Z',
    '2026-03-08T07:40:00Z',
    '2026-03-08T09:00:00Z',
    '2026-06-01T00:00:00Z',
    '2026-11-01T05:20:00Z',
    '2026-11-01T06:20:00Z',
    '2026-11-01T06:40:00Z',
    '2026-11-23T12:00:00Z',
    '2027-03-14T07:30:00Z',
    '2028-02-29T05:00:00Z',
    '2028-03-01T00:00:00Z',
  ].map(t);

  it.each(pairs)('%s and %s in New York', (forwards, backwards) => {
    const ask = (schedule: string, at: number) => [nextRunAfter(schedule, NY, at), previousRunBefore(schedule, NY, at)];
    const inOrder = times.map((at) => ask(forwards, at));
    const reversed = [...times].reverse().map((at) => ask(backwards, at)).reverse();
    expect(reversed).toEqual(inOrder);
  });

  it('a leap-day schedule answers across two switches from one search', () => {
    expect(nextRunAfter('0 0 29 2 *', NY, t('2026-11-23T12:00:00Z'))).toBe(t('2028-02-29T05:00:00Z'));
    expect(nextRunAfter('0 0 29 2 *', NY, t('2027-03-14T07:30:00Z'))).toBe(t('2028-02-29T05:00:00Z'));
    expect(nextRunAfter('0 0 29 2 *', NY, t('2027-07-01T00:00:00Z'))).toBe(t('2028-02-29T05:00:00Z'));
    expect(previousRunBefore('0 0 29 2 *', NY, t('2027-11-07T06:30:00Z'))).toBe(t('2024-02-29T05:00:00Z'));
    expect(previousRunBefore('0 0 29 2 *', NY, t('2026-11-23T12:00:00Z'))).toBe(t('2024-02-29T05:00:00Z'));
  });
});
