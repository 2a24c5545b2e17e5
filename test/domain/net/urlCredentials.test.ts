import { describe, expect, it } from 'vitest';
import { decodeUrlPart } from '../../../agent/domain/net/urlCredentials';

describe('decodeUrlPart', () => {
  it('reads valid escapes (UTF-8 included) and keeps a bare or broken % as written', () => {
    expect(decodeUrlPart('p%40ss')).toBe('p@ss');
    expect(decodeUrlPart('caf%C3%A9')).toBe('café');
    expect(decodeUrlPart('50%off')).toBe('50%off');
    expect(decodeUrlPart('100%')).toBe('100%');
    expect(decodeUrlPart('a%E0%A4b%41')).toBe('a%E0%A4bA');
  });
});
