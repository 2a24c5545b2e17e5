import { describe, expect, it } from 'vitest';
import { findTimeZone, resolveTimeZone, searchZones, zoneChoices } from '../../../agent/domain/time/timeZones';
import { etcZoneOf, typedOffset } from '../../../agent/domain/time/utcOffsets';

/*
 * A UTC offset typed as a zone ("UTC+2") is explained, not offered "UTC": the zone database's
 * fixed-offset zones have the opposite sign (Etc/GMT-2 is UTC+2), and a city follows daylight
 * saving. The zones offered agree with what the field takes and what search finds.
 */
describe('a UTC offset typed as a zone', () => {
  it.each([
    ['UTC+2', 120],
    ['utc+2', 120],
    ['GMT+2', 120],
    ['+02:00', 120],
    ['UTC-5', -300],
    ['UTC+5:30', 330],
    ['UTC+0545', 345],
  ])('reads %j as %i minutes east of UTC', (typed, minutes) => {
    expect(typedOffset(typed)).toBe(minutes);
  });

  it('names the zone with the reversed sign', () => {
    expect(etcZoneOf(120)).toBe('Etc/GMT-2');
    expect(etcZoneOf(-300)).toBe('Etc/GMT+5');
    expect(etcZoneOf(330)).toBeNull();
  });

  it('refuses UTC+2 saying which zone means UTC+2, its sign reversed, and a city, never offering UTC', () => {
    const answer = resolveTimeZone('UTC+2');
    expect(answer.zone).toBeUndefined();
    expect(answer.error).toContain('UTC+2 is Etc/GMT-2 in the zone database (its sign is reversed)');
    expect(answer.error).toContain('Europe/Berlin (UTC+1, UTC+2 in summer)');
    expect(answer.suggestions?.[0]).toBe('Etc/GMT-2');
    expect(answer.suggestions).toContain('Europe/Berlin');
    expect(answer.suggestions).not.toContain('UTC');
    // GMT+2 was taken for an abbreviation and offered Antarctica/Troll.
    expect(resolveTimeZone('GMT+2').suggestions?.[0]).toBe('Etc/GMT-2');
  });

  it('says the zone database has none for a half-hour offset, and offers its cities', () => {
    const answer = resolveTimeZone('UTC+5:30');
    expect(answer.error).toContain('the zone database has no zone for UTC+5:30 alone');
    expect(answer.suggestions?.[0]).toBe('Asia/Kolkata');
  });

  it('takes UTC+0 as UTC, and Etc/GMT-2 typed by its name as it is', () => {
    expect(resolveTimeZone('UTC+0')).toMatchObject({ zone: 'UTC' });
    expect(resolveTimeZone('Etc/GMT-2')).toEqual({ zone: 'Etc/GMT-2' });
  });
});

describe('the zones offered agree with what the field takes and what search found', () => {
  it('offers the zone "india" is taken as first, then what search finds', () => {
    expect(findTimeZone('india').zone).toBe('Asia/Kolkata');
    const offered = zoneChoices('india').map((m) => m.zone);
    expect(offered[0]).toBe('Asia/Kolkata');
    expect(offered).toEqual(expect.arrayContaining(searchZones('india', 3).map((m) => m.zone)));
  });

  it.each(['UTC+2', 'EST', 'Pari', 'Paris'])('offers for %j the zones its refusal names, in that order, first', (typed) => {
    const offered = zoneChoices(typed).map((m) => m.zone);
    const named = findTimeZone(typed).zone ? [findTimeZone(typed).zone] : (resolveTimeZone(typed).suggestions ?? []);
    expect(offered.slice(0, named.length)).toEqual(named.slice(0, offered.length));
    expect(offered.length).toBeGreaterThan(0);
  });

  it('offers nothing when a zone is typed by its own name', () => {
    expect(zoneChoices('Europe/Paris')).toEqual([]);
  });
});
