import { describe, expect, it } from 'vitest';
import { offsetSwitchesBetween } from '../../../agent/domain/time/zoneOffsets';
import { canRunSystemd, compareFixed, differential, type Disagreement } from './calendarDifferential';

// A seeded slice of the differential run (calendarDifferential.ts, which runs thousands): Cronbeat's
// calendar events against the real `systemd-analyze calendar` on this machine, around daylight-saving
// switches. Skipped where systemd-analyze or libfaketime is missing.
describe.skipIf(!canRunSystemd)('calendar events against systemd-analyze', () => {
  it('accepts and refuses what systemd does, and finds the same next runs', { timeout: 120_000 }, async () => {
    const result = await differential(20261127, 1500, 5);
    expect(result.disagreements).toEqual([]);
    expect(result.cases).toBe(1500);
    // The slice compares runs, not only refusals.
    expect(result.runs).toBeGreaterThan(3_500);
    expect(result.refused).toBeGreaterThan(100);
  });

  it('agrees on the corners of the grammar the generator does not write', { timeout: 60_000 }, async () => {
    // Weekday ranges with "-", trailing commas, @timestamps, fractions of seconds, zones by name and
    // letter case, two-digit years, the year limits, "~" forms, out-of-range and half-written fields.
    const corners = [
      'Mon-Fri 09:00', 'mon,tue 09:00', 'Mon, 09:00', 'Mon,', 'Mon..', 'Monday..Friday *-*-* 1:2:3', 'MON 09:00', 'Mon..Wed,Fri..Sun 9:00', 'Mon-Wed-Fri 09:00',
      '@1790000000', '@0', '@abc', '@1790000000 UTC', '@2147483648', '@7258118399', '@7258118400', '@ 1790000000', '@+1790000000', '@-0', '@-5', '@1790000000.', '@18446744073709551616', '*-*-* *:*:*', '*:*', '*:*:*.5', '*:*:0.123456', '*:*:0.1234567', '*:*:1..5', '*:*:1..5/2', '*:*:00/0.5',
      '12:00 utc', '12:00 Utc', '12:00 Europe/Paris', '12:00 europe/paris', '12:00 Etc/UTC', '12:00 GMT', '12:00 EST', '12:00 EDT', '12:00 Europe/Pari', '12:00 Mars/Base', '12:00 posix/Europe/Paris', '12:00 right/UTC', 'Mon 02:30 right/Europe/Dublin', '12:00 posixrules', '12:00 Factory', '12:00 right/Europe/Pari', '12:00 posix/', '12:00 right/posixrules', '12:00 right/Factory', '@1790000000 right/UTC', '@1790000000 right/Europe/Paris', '@1790000000 posix/Asia/Tokyo', '12:00 est', '12:00 us/eastern', '12:00 zulu', '12:00 etc/utc', '12:00 US/Eastern', '12:00 Europe/Kiev', '12:00  UTC', 'daily  Europe/Paris', 'Mon\t12:00',
      'anually', 'bi-annually', 'semi-annually', 'Biannually', 'Minutely', 'hourly UTC', 'daily Europe/Paris',
      '26-01-01', '99-01-01', '00-01-01', '1969-01-01', '2199-12-31', '2200-01-01', '70-01-01',
      '*-*~1', '*-*~28', '*-*~29', '*-*~01..03', '*-*~03..01', '*-*~7/2', '*-*~01/2', '*-~01', '*~01', '01~01', '2026~01~01', '2026-02~01',
      '*-*-1,15 *:0', '1,,2:00', '1,:00', ':00', '12:', '12:00:', '12:00:00:00', '24:00', '23:60', '23:59:60', '0/0:00', '00/24:00', '00/23:00', '0..23/12:00',
      '*-1..12/3-1', '*-0-1', '*-13-1', '*-1-0', '*-1-32', '*-02-29', 'Sun *-02-29', '*-*-* 1..3,5', '+1:00', '-1:00',
      '12:00:00.', '12:00:00..5', '*:00/15,07', '0..59/60:00', 'Mon *-*-* 00:00:00 Australia/Lord_Howe', '2026-*-* 1', 'Fri *-*-1..7 00:00', 'Sat..Sun', 'Sat .. Sun',
    ];
    expect(await compareFixed(corners, 'Europe/Berlin', Date.parse('2026-03-28T22:00:00Z'), 3)).toEqual([]);
  });

  it('agrees on a second slice written to be hard: "~" lists, fractions, year steps, every zone', { timeout: 60_000 }, async () => {
    // calendarHardExpressions.ts; this seed found three disagreements before "~" lists and
    // seconds past 59 were read as systemd reads them.
    const result = await differential(1128, 1000, 5, 40, true);
    expect(result.disagreements).toEqual([]);
    expect(result.runs).toBeGreaterThan(1_500);
  });

  it('agrees on hand-picked hard cases around odd switches and year ends', { timeout: 60_000 }, async () => {
    const cases = [
      // Weekday lists and ranges, in any letter case.
      'Mon..Fri', 'Sat,Sun', 'Mon..Wed,Fri 09:00', 'MON..FRI 09:00', 'Mon,Mon 10:00', 'Sun..Sun 10:00', 'Monday-Friday 08:00', 'Mon.Fri 08:00', 'Tues 08:00', 'Weds 08:00',
      // Years, months and days with ranges, lists and repetitions in every field.
      '2026..2030-*-* 00:00', '2026/2-*-* 00:00', '2026..2040/3-01-01', '*-*-1/3 12:00', '*-1/2-1', '*-*-31/1', '*-2..11/3-*', '*-*-* 0/15:00', '00/2:00', '*:0/15', '*:*:0/15',
      // Seconds: fractions, and repetitions that pass 59 (carried into the next minute, as mktime() does).
      '*:*:0.5', '*:*:0.25/0.25', '*:*:00/0.25', '*:*:1.5..3.5/0.5', '*:*:00/7', '*:*:10/25.5', '*:*:13/23,00', '*:*:0.1234565', '*:*:59.9999995',
      // "~": ranges, repetitions towards the end, lists whose limit drops by 3 a value.
      '*-02~01', '*-*~07/1', '*-*~07/2', '*-*~28/7', '*-*~1..3', '*-02~01..07', '*-*~01,15', '*-*~01,25', '*-*~01,26', '*-*~01,02,22', '*-*~01,02,23', '*-*~01,22/21', '*-*~01/7', '*-02~29',
      // Shorthands, and the words systemd takes only as timestamps.
      'minutely', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'quarterly', 'semiannually', 'annually', 'HOURLY', 'weekly Europe/Dublin', 'today', 'tomorrow', 'now',
      // 29 February, year ends, and fixed times on switch nights in zones of their own.
      '*-02-29 00:00', '2027-02-29 00:00', 'Mon *-02-29', '*-12-31 23:59:59', '12-31 23:59', '*-01-01 00:00:00', '*-*-* 02:30', '*-*-* 01:30', '*-*-* 00:00', '*-*-* 00:30', '*-*-* 23:30', '*-*-* 01:00/20:00',
      '*-*-* 02:30 Europe/Dublin', '*-*-* 02:15 Australia/Lord_Howe', '*-*-* 00:00 America/Santiago', '*-*-* 02:45 Pacific/Chatham', '*-*-* 00:00 Asia/Tehran', '*-*-* 00:30 Africa/Cairo',
    ];
    const moments: [string, string][] = [
      ['America/New_York', '2026-03-08T06:40:00Z'], ['Europe/Dublin', '2026-10-25T00:30:00Z'], ['Australia/Lord_Howe', '2026-10-03T15:00:00Z'],
      ['America/Santiago', '2026-09-06T03:00:00Z'], ['Pacific/Chatham', '2026-09-26T13:00:00Z'], ['Asia/Tehran', '2026-12-31T20:29:59Z'], ['Africa/Accra', '2028-02-28T23:59:00Z'],
    ];
    for (const [zone, start] of moments) expect(await compareFixed(cases, zone, Date.parse(start), 5)).toEqual([]);
  });
  it('agrees a second before, at, a second after and half an hour after every switch of odd zones', { timeout: 60_000 }, async () => {
    // Starts on the very edge of a switch, where a search's first mktime() lands in the gap or the repeat.
    const cases = [
      '*-*-* 02:30', '*-*-* 01:30', '*-*-* 00:00', '*-*-* 00:30', '*-*-* 02:15', '*-*-* 02:45', '*-*-* 01:59:59', '*-*-* 02:59:59', '*:0/15', '*:30',
      '*:*:0/30', 'hourly', 'daily', '*-*-* 00/2:00', 'Sat,Sun *-*-* 00:00', 'Fri..Sun 02:30', '*-*~01 00:00', '*-*-* 23:59', '*:15,45', '*-*-* 03:00',
    ];
    const zones = ['Australia/Lord_Howe', 'Pacific/Chatham', 'Europe/Dublin', 'America/Santiago', 'Asia/Gaza', 'Africa/Cairo'];
    const disagreements: Disagreement[] = [];
    let starts = 0;
    for (const zone of zones) {
      for (const at of offsetSwitchesBetween(zone, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))) {
        for (const start of [at - 1000, at, at + 1000, at + 1_800_000]) {
          disagreements.push(...(await compareFixed(cases, zone, start, 3)));
          starts++;
        }
      }
    }
    expect(disagreements).toEqual([]);
    // Two switches a year in each (Cairo's and Gaza's included).
    expect(starts).toBe(zones.length * 2 * 4);
  });
});
