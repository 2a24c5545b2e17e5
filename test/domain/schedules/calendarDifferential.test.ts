import { describe, expect, it } from 'vitest';
import { canRunSystemd, compareFixed, differential } from './calendarDifferential';

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
      '@1790000000', '@0', '@abc', '@1790000000 UTC', '*-*-* *:*:*', '*:*', '*:*:*.5', '*:*:0.123456', '*:*:0.1234567', '*:*:1..5', '*:*:1..5/2', '*:*:00/0.5',
      '12:00 utc', '12:00 Utc', '12:00 Europe/Paris', '12:00 europe/paris', '12:00 Etc/UTC', '12:00 GMT', '12:00 EST', '12:00 Mars/Base',
      'anually', 'bi-annually', 'semi-annually', 'Biannually', 'Minutely', 'hourly UTC', 'daily Europe/Paris',
      '26-01-01', '99-01-01', '00-01-01', '1969-01-01', '2199-12-31', '2200-01-01', '70-01-01',
      '*-*~1', '*-*~28', '*-*~29', '*-*~01..03', '*-*~03..01', '*-*~7/2', '*-*~01/2', '*-~01', '*~01', '01~01', '2026~01~01', '2026-02~01',
      '*-*-1,15 *:0', '1,,2:00', '1,:00', ':00', '12:', '12:00:', '12:00:00:00', '24:00', '23:60', '23:59:60', '0/0:00', '00/24:00', '00/23:00', '0..23/12:00',
      '*-1..12/3-1', '*-0-1', '*-13-1', '*-1-0', '*-1-32', '*-02-29', 'Sun *-02-29', '*-*-* 1..3,5', '+1:00', '-1:00',
      '12:00:00.', '12:00:00..5', '*:00/15,07', '0..59/60:00', 'Mon *-*-* 00:00:00 Australia/Lord_Howe', '2026-*-* 1', 'Fri *-*-1..7 00:00', 'Sat..Sun', 'Sat .. Sun',
    ];
    expect(await compareFixed(corners, 'Europe/Berlin', Date.parse('2026-03-28T22:00:00Z'), 3)).toEqual([]);
  });
});
