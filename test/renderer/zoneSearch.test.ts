import { describe, expect, it } from 'vitest';
import { resolveZone, searchZones } from '../../renderer/src/lib/zoneSearch';
import { validateTimezone } from '../../renderer/src/lib/validate';

const zones = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

describe('time zone search by place', () => {
  it.each([
    ['Paris', 'Europe/Paris'],
    ['paris', 'Europe/Paris'],
    ['New York', 'America/New_York'],
    ['new york', 'America/New_York'],
    ['los angeles', 'America/Los_Angeles'],
    ['San Francisco', 'America/Los_Angeles'],
    ['Mumbai', 'Asia/Kolkata'],
    ['são paulo', 'America/Sao_Paulo'],
    ['europe/paris', 'Europe/Paris'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['utc', 'UTC'],
  ])('takes %j as %s', (typed, zone) => {
    expect(resolveZone(typed, zones)).toBe(zone);
    expect(validateTimezone(typed)).toBeUndefined();
  });

  it('offers zones for a start or a region, best first, and takes none of them by itself', () => {
    expect(searchZones('new', zones).map((m) => m.zone)).toContain('America/New_York');
    expect(searchZones('York', zones)[0]).toMatchObject({ zone: 'America/New_York', place: 'New York', region: 'America' });
    expect(searchZones('Europe', zones).length).toBeGreaterThan(5);
    expect(resolveZone('Europe', zones)).toBeNull();
    expect(validateTimezone('Europe')).toBe('Several time zones match: pick one below.');
  });

  it('says plainly when nothing matches', () => {
    expect(searchZones('Olympus Mons', zones)).toEqual([]);
    expect(validateTimezone('Mars/Olympus')).toMatch(/^Not a time zone this system knows/);
  });
});
