import { describe, expect, it } from 'vitest';
import { PagedJsonArray } from '../../../agent/domain/formats/jsonPages';

const items = [
  { id: 1, name: 'quote " \\ tab\t nul\u0000 \u2028 é 😀', tags: [], n: null, at: '2026-11-25T10:00:00.000000Z' },
  { id: 2, nested: { list: [1, 2.5, -3e-7, null], flag: true }, gone: undefined },
  'a string',
  42,
  null,
  [],
  {},
];

describe('PagedJsonArray is the UTF-8 of JSON.stringify of all the pages as one array', () => {
  it('for every way of cutting a list into pages, empty pages included', () => {
    for (let seed = 1; seed <= 200; seed++) {
      let state = seed;
      const random = (n: number) => ((state = (state * 48_271) % 2_147_483_647) % n);
      const all = Array.from({ length: random(30) }, () => items[random(items.length)]);
      const text = new PagedJsonArray();
      // Pages of 0 to 4 items, then up to two empty ones.
      for (let at = 0; at < all.length; ) {
        const size = random(5);
        text.add(all.slice(at, at + size));
        at += size;
      }
      for (let empty = random(3); empty > 0; empty--) text.add([]);
      expect(text.bytes().toString()).toBe(JSON.stringify(all));
      expect(text.bytes().equals(Buffer.from(JSON.stringify(all))), `bytes of ${JSON.stringify(all)}`).toBe(true);
    }
  });

  it('is an empty array with no pages or only empty ones', () => {
    expect(new PagedJsonArray().bytes().toString()).toBe('[]');
    const text = new PagedJsonArray();
    text.add([]);
    text.add([]);
    expect(text.bytes().toString()).toBe('[]');
  });
});
