import { z } from 'zod';
import { MAX_MEASURED_DURATION_MS } from '../domain/pulseInput';
import type { SpoolEntry } from './spoolEntry';

// Loaded only when a spool has lines to read: loading zod costs a job's `cronbeat ping` more
// than the rest of it together.

/** The largest time a JS Date can hold; beyond it a time cannot even be printed. */
const MAX_DATE_MS = 8_640_000_000_000_000;
/** A string that can travel in a URL: no lone UTF-16 surrogate (encodeURIComponent throws on one). */
const wellFormed = (text: string) => !/\p{Surrogate}/u.test(text);

/** One line of spool.jsonl, as every version of the CLI writes it. */
const spoolLine = z.object({
  id: z.string().min(1).max(100),
  /** When the pulse's event happened (lines of older versions: when the pulse was first sent). */
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

/** The entry a spool line holds, or null when it is not one (half-written, edited, from a bug). */
export function parseSpoolLine(line: string): SpoolEntry | null {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = spoolLine.safeParse(json);
  if (!parsed.success) return null;
  const { id, sentAt, baseUrl, pulse } = parsed.data;
  // Lines of older versions have no key: their id is as unique and as stable.
  return { id, baseUrl, pulse: { ...pulse, key: pulse.key ?? id, at: sentAt } };
}
