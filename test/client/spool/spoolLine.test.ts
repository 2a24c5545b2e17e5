import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseSpoolLine } from '../../../agent/client/spool/spoolLine';
import { lineOf } from '../../../agent/client/spool/spoolEntry';
import { MAX_MEASURED_DURATION_MS } from '../../../agent/domain/monitors/pulseInput';

/*
 * The spool's lines are checked by hand (zod would be most of dist/cronbeat.cjs). The schema
 * they were checked with before is kept here as the reference: both must take and refuse the
 * same lines, and read the same entry from them.
 */

const MAX_DATE_MS = 8_640_000_000_000_000;
const wellFormed = (text: string) => !/\p{Surrogate}/u.test(text);
const reference = z.object({
  id: z.string().min(1).max(100),
  sentAt: z.number().int().min(0).max(MAX_DATE_MS),
  baseUrl: z.string().max(2_000).refine((url) => /^https?:\/\//.test(url) && URL.canParse(url)),
  pulse: z.object({
    token: z.string().min(1).max(200).refine(wellFormed),
    line: z.object({ key: z.string().min(1).max(200).refine(wellFormed), query: z.string().max(2_000).refine(wellFormed) }).optional(),
    signal: z.union([z.enum(['success', 'start', 'fail']), z.number().int().min(0).max(255)]),
    rid: z.string().max(200).refine(wellFormed).optional(),
    body: z.string().optional(),
    key: z.string().regex(/^[\x20-\x7e]{1,255}$/).optional(),
    durationMs: z.number().int().min(0).max(MAX_DATE_MS).max(MAX_MEASURED_DURATION_MS).optional(),
  }),
});

function byReference(line: string) {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = reference.safeParse(json);
  if (!parsed.success) return null;
  const { id, sentAt, baseUrl, pulse } = parsed.data;
  const { token, ...rest } = pulse;
  return { id, baseUrl, pulse: { ...rest, tokenOrSlug: token, key: pulse.key ?? id, at: sentAt } };
}

/** Values near every bound the schema has, and some of the wrong type. */
const edgy = (good: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: good },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, '', 0, -1, 1.5, 256, 'x'.repeat(201), '\uD800', [], {}, true, 2 ** 53, MAX_DATE_MS) },
  );
const shortText = (max: number) => fc.oneof(fc.string({ maxLength: max + 2 }), fc.constantFrom('a\uD800b', 'x'.repeat(max), 'x'.repeat(max + 1)));
const count = (max: number) => fc.oneof(fc.integer({ min: -2, max: max + 2 }), fc.constantFrom(max, max + 1, 0.5, Number.MAX_SAFE_INTEGER));

const pulse = fc.record(
  {
    token: edgy(shortText(200)),
    line: edgy(fc.record({ key: edgy(shortText(200)), query: edgy(shortText(2_000)) }, { requiredKeys: [] })),
    signal: edgy(fc.oneof(fc.constantFrom('success', 'start', 'fail', 'ok'), count(255))),
    rid: edgy(shortText(200)),
    body: edgy(fc.string()),
    key: edgy(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('k'.repeat(255), 'k'.repeat(256), 'tab\there'))),
    durationMs: edgy(count(MAX_MEASURED_DURATION_MS)),
    extra: fc.string(),
  },
  { requiredKeys: ['token', 'signal'] },
);
const entry = fc.record(
  {
    id: edgy(shortText(100)),
    sentAt: edgy(count(MAX_DATE_MS)),
    baseUrl: edgy(fc.constantFrom('http://127.0.0.1:8787', 'https://agent.example', 'ftp://x', 'http://', 'http://[::1', `http://h/${'p'.repeat(2_000)}`)),
    pulse: edgy(pulse),
  },
  { requiredKeys: ['id', 'sentAt', 'baseUrl', 'pulse'] },
);

describe('parseSpoolLine', () => {
  it('takes and refuses exactly the lines the schema did, reading the same entry', () => {
    fc.assert(
      fc.property(entry, (value) => {
        const line = JSON.stringify(value);
        expect(parseSpoolLine(line)).toEqual(byReference(line));
      }),
      { numRuns: 3_000 },
    );
  });

  it('writes the token or slug under the name every version of the CLI reads, and reads it back', () => {
    const written = lineOf({ id: 'e-1', baseUrl: 'http://127.0.0.1:8787', pulse: { tokenOrSlug: 'nightly-backup', signal: 'start', key: 'k', at: 1_700_000_000_000 } });
    expect(JSON.parse(written).pulse).toEqual({ token: 'nightly-backup', signal: 'start', key: 'k' });
    expect(parseSpoolLine(written)?.pulse.tokenOrSlug).toBe('nightly-backup');
  });

  it('refuses what is not JSON or not an object', () => {
    for (const line of ['', '{', 'null', '[]', '"x"', '{"id":"a"}']) expect(parseSpoolLine(line)).toBeNull();
  });
});
