import { describe, expect, it } from 'vitest';
import { lookAlikesIn, slugOf } from '../../../agent/domain/monitors/ownLine';

describe('slugOf: the slug a job line matches its monitor by', () => {
  it('drops accents, lower-cases and joins other characters with one "-"', () => {
    expect(slugOf('Nightly Backup')).toBe('nightly-backup');
    expect(slugOf('NIGHTLY  backup!')).toBe('nightly-backup');
    expect(slugOf('Café')).toBe('cafe');
    expect(slugOf('db_dump')).toBe('db_dump');
  });

  it('spells letters that have no accent to drop as their languages do, never as a gap', () => {
    expect(slugOf('Straße')).toBe('strasse');
    expect(slugOf('STRASSE')).toBe('strasse');
    expect(slugOf('Ærø backup')).toBe('aero-backup');
    expect(slugOf('Łódź sync')).toBe('lodz-sync');
    expect(slugOf('Œuvre')).toBe('oeuvre');
  });

  it('gives no slug without a letter a–z: none left, or digits alone (a badge URL reads those as an id)', () => {
    expect(slugOf('!!!')).toBeUndefined();
    expect(slugOf('日本語')).toBeUndefined();
    expect(slugOf('🚀')).toBeUndefined();
    expect(slugOf('2024')).toBeUndefined();
    expect(slugOf('42 ')).toBeUndefined();
    expect(slugOf('backup 2024')).toBe('backup-2024');
  });

  it('gives no slug to a name spelt with look-alike characters, so it never reaches the monitor of the name it imitates', () => {
    expect(slugOf('ｄｂ-ｄｕｍｐ')).toBeUndefined();
    expect(slugOf('ﬁle-sync')).toBeUndefined();
    expect(slugOf('backup²')).toBeUndefined();
    expect(slugOf('ſync')).toBeUndefined();
    expect(lookAlikesIn('ｄｂ-ｄｕｍｐ')).toEqual(['ｄ', 'ｂ', 'ｕ', 'ｍ', 'ｐ']);
    expect(lookAlikesIn('ﬁle-sync')).toEqual(['ﬁ']);
    // Letters of their own, spelt in ASCII as their languages do, and a composed accent written in two code points.
    expect(lookAlikesIn('Straße Café Ærø')).toEqual([]);
    expect(slugOf('Cafe\u0301')).toBe('cafe');
  });
});
