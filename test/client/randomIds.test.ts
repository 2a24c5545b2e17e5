import { describe, expect, it } from 'vitest';
import { randomUuid } from '../../agent/client/pulses/randomIds';

describe('randomUuid', () => {
  it('gives version 4 UUIDs, as crypto.randomUUID() does, never the same twice', () => {
    const ids = Array.from({ length: 1000 }, () => randomUuid());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
