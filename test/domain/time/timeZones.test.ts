import { describe, expect, it } from 'vitest';
import { currentZoneNames, findTimeZone, resolveCronTimeZone, resolveTimeZone, searchZones } from '../../../agent/domain/time/timeZones';

describe('resolveTimeZone: the one rule of the API, the dashboard and the CLI', () => {
  it.each([
    ['Europe/Paris', 'Europe/Paris'],
    ['europe/paris', 'Europe/Paris'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
  ])('takes the current name %j as %s, without a note', (typed, zone) => {
    expect(resolveTimeZone(typed)).toEqual({ zone });
  });

  it.each([
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['US/Eastern', 'America/New_York'],
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['Japan', 'Asia/Tokyo'],
    ['GMT', 'UTC'],
    ['Etc/UTC', 'UTC'],
  ])('maps the old name %j to %s and says so', (typed, zone) => {
    const answer = resolveTimeZone(typed);
    expect(answer.zone).toBe(zone);
    expect(answer.note).toContain(typed);
  });

  it.each([
    ['EST', 'America/New_York'],
    ['est', 'America/New_York'],
    ['EST5EDT', 'America/New_York'],
    ['PST8PDT', 'America/Los_Angeles'],
    ['CET', 'Europe/Berlin'],
    ['IST', 'Asia/Kolkata'],
  ])('refuses the abbreviation %j, naming %s among the zones it may mean', (typed, zone) => {
    const answer = resolveTimeZone(typed);
    expect(answer.zone).toBeUndefined();
    expect(answer.error).toMatch(/is an abbreviation, not a time zone/);
    expect(answer.suggestions).toContain(zone);
    expect(answer.error).toContain(zone);
  });

  it('refuses a place or a misspelling with the zone it may mean, and nonsense plainly', () => {
    expect(resolveTimeZone('Paris')).toMatchObject({ error: '"Paris" is not a time zone: did you mean Europe/Paris?', suggestions: ['Europe/Paris'] });
    expect(resolveTimeZone('Europe/Pari').suggestions).toEqual(['Europe/Paris']);
    expect(resolveTimeZone('Mars/Olympus')).toEqual({ error: '"Mars/Olympus" is not a time zone; give one such as Europe/Paris.', suggestions: [] });
    expect(resolveTimeZone('  ').error).toBeDefined();
  });
});

describe('findTimeZone and searchZones: zones by country and city (@vvo/tzdb)', () => {
  it.each([
    ['india', 'Asia/Kolkata'],
    ['Paris', 'Europe/Paris'],
    ['new york', 'America/New_York'],
    ['San Francisco', 'America/Los_Angeles'],
    ['Mumbai', 'Asia/Kolkata'],
    ['Munich', 'Europe/Berlin'],
    ['são paulo', 'America/Sao_Paulo'],
    ['Kyiv', 'Europe/Kyiv'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
  ])('finds %j as %s', (typed, zone) => {
    expect(findTimeZone(typed).zone).toBe(zone);
    expect(searchZones(typed)[0]?.zone).toBe(zone);
  });

  it('takes no abbreviation and no region by itself, but offers zones for them', () => {
    expect(findTimeZone('EST').zone).toBeUndefined();
    expect(findTimeZone('Europe').zone).toBeUndefined();
    expect(searchZones('EST')[0]?.zone).toBe('America/New_York');
    expect(searchZones('Europe').length).toBeGreaterThan(5);
    expect(searchZones('United States').map((m) => m.zone)).toContain('America/Chicago');
    expect(searchZones('Olympus Mons')).toEqual([]);
  });

  it('lists current names only, UTC first', () => {
    const names = currentZoneNames();
    expect(names[0]).toBe('UTC');
    expect(names).toContain('Asia/Kolkata');
    expect(names).not.toContain('Asia/Calcutta');
    expect(names).not.toContain('EST');
  });
});

describe('resolveCronTimeZone: CRON_TZ as cron reads it', () => {
  const machineHas = (...zones: string[]) => (zone: string) => zones.includes(zone);

  it('takes a zone tzdb keeps under an abbreviation as the current zone with its clock, with a note', () => {
    expect(resolveCronTimeZone('EST', machineHas('EST'))).toMatchObject({ zone: 'America/Panama', note: expect.stringContaining('CRON_TZ=EST') });
    expect(resolveCronTimeZone('MST7MDT', machineHas('MST7MDT')).zone).toBe('America/Denver');
  });

  it('takes what resolveTimeZone takes, whatever the machine has', () => {
    expect(resolveCronTimeZone('Europe/Paris', machineHas())).toEqual({ zone: 'Europe/Paris' });
  });

  it('refuses a name the machine has no zone file for, and never looks outside the zone folder', () => {
    const asked: string[] = [];
    const machine = (zone: string) => (asked.push(zone), true);
    expect(resolveCronTimeZone('../../etc/passwd', machine).error).toMatch(/is not a time zone of this machine/);
    expect(asked).toEqual([]);
    expect(resolveCronTimeZone('EST', machineHas()).error).toMatch(/^CRON_TZ "EST" is not a time zone of this machine/);
  });
});
