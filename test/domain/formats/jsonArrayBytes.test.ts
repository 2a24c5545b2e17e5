import { describe, expect, it } from 'vitest';
import { JsonArrayBytes } from '../../../agent/domain/formats/jsonArrayBytes';

const items = [
  { id: 1, name: 'quote " \\ tab\t nul\u0000 \u2028 é 😀', tags: [], n: null, at: '2026-11-25T10:00:00.000000Z' },
  { id: 2, nested: { list: [1, 2.5, -3e-7, null], flag: true }, gone: undefined },
  'a string',
  42,
  null,
  [],
  {},
];

describe('JsonArrayBytes is the UTF-8 of JSON.stringify of all its items as one array', () => {
  it('for lists of any length of varied items, added as bytes or in runs', () => {
    for (let seed = 1; seed <= 200; seed++) {
      let state = seed;
      const random = (n: number) => ((state = (state * 48_271) % 2_147_483_647) % n);
      const all = Array.from({ length: random(30) }, () => items[random(items.length)]);
      const array = new JsonArrayBytes();
      // Items one at a time as bytes, and runs of 1 to 4 (or none) serialised together, in turn at random.
      for (let at = 0; at < all.length; ) {
        if (random(2) === 0) {
          array.add(Buffer.from(JSON.stringify(all[at++])));
        } else {
          const size = random(5);
          array.addRun(all.slice(at, at + size));
          at += size;
        }
      }
      expect(array.bytes().equals(Buffer.from(JSON.stringify(all))), `bytes of ${JSON.stringify(all)}`).toBe(true);
    }
  });

  it('is an empty array with no items, or only empty runs', () => {
    expect(new JsonArrayBytes().bytes().toString()).toBe('[]');
    const array = new JsonArrayBytes();
    array.addRun([]);
    expect(array.bytes().toString()).toBe('[]');
  });
});
