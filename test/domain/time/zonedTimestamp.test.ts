import { describe, expect, it } from 'vitest';
import { parseZonedTimestamp } from '../../../agent/domain/time/zonedTimestamp';

describe('parseZonedTimestamp', () => {
  it.each([
    ['2030-02-28T10:00:00Z', '2030-02-28T10:00:00.000Z'],
    ['2028-02-29T23:59:59.999Z', '2028-02-29T23:59:59.999Z'],
    ['2030-03-08T07:40+01:00', '2030-03-08T06:40:00.000Z'],
    ['2030-12-31T00:00:00-12:00', '2030-12-31T12:00:00.000Z'],
    [' 2030-01-10T10:00:00z ', '2030-01-10T10:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(new Date(parseZonedTimestamp(text)!).toISOString()).toBe(iso);
  });

  it.each([
    '2030-02-30T10:00:00Z', // Date.parse: March 2nd
    '2029-02-29T10:00:00Z',
    '2030-04-31T10:00:00Z',
    '2030-13-01T10:00:00Z',
    '2030-00-10T10:00:00Z',
    '2030-01-00T10:00:00Z',
    '2030-01-10T24:00:00Z',
    '2030-01-10T10:60:00Z',
    '2030-01-10T10:00:60Z',
    '2030-01-10T10:00:00+24:00',
    '2030-01-10T10:00:00+01:60',
    '2030-01-10T10:00:00', // no zone
    '2030-01-10',
    'tomorrow',
    '',
  ])('refuses %j', (text) => {
    expect(parseZonedTimestamp(text)).toBeNull();
  });
});
