import { describe, expect, it } from 'vitest';
import { uuidOf } from '../../../agent/domain/text/uuid';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidOf', () => {
  it('writes 16 bytes as a version 4 UUID, its version and variant bits set and every other bit kept', () => {
    expect(uuidOf(new Uint8Array(16))).toBe('00000000-0000-4000-8000-000000000000');
    expect(uuidOf(new Uint8Array(16).fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    const counting = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    expect(uuidOf(counting)).toBe('00112233-4455-4677-8899-aabbccddeeff');
    expect(uuidOf(counting)).toMatch(V4);
  });

  it('leaves the bytes it was given as they were', () => {
    const bytes = new Uint8Array(16).fill(0xff);
    uuidOf(bytes);
    expect([...bytes]).toEqual(new Array(16).fill(0xff));
  });

  it('refuses any other number of bytes', () => {
    expect(() => uuidOf(new Uint8Array(15))).toThrow(RangeError);
  });
});
