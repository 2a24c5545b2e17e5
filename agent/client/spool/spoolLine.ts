import { MAX_MEASURED_DURATION_MS } from '../../domain/monitors/pulseInput';
import type { LineTarget, PulseSignal } from '../pulses/pulses';
import type { SpoolEntry } from './spoolEntry';

// Checked by hand, not with a schema library: this is part of dist/cronbeat.cjs, the job side
// every `cronbeat run` starts, and zod alone would be most of that file's size.

/** The largest time a JS Date can hold; beyond it a time cannot even be printed. */
const MAX_DATE_MS = 8_640_000_000_000_000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A string that can travel in a URL: no lone UTF-16 surrogate (encodeURIComponent throws on one). */
const wellFormed = (text: string) => !/\p{Surrogate}/u.test(text);
const text = (value: unknown, min: number, max: number): value is string => typeof value === 'string' && value.length >= min && value.length <= max;
const urlText = (value: unknown, min: number, max: number): value is string => text(value, min, max) && wellFormed(value);
const whole = (value: unknown, max: number): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;
const optional = <T>(value: unknown, check: (v: unknown) => v is T): value is T | undefined => value === undefined || check(value);

function signalOf(value: unknown): PulseSignal | null {
  if (value === 'success' || value === 'start' || value === 'fail') return value;
  return whole(value, 255) ? value : null;
}

function lineOf(value: unknown): LineTarget | undefined | null {
  if (value === undefined) return undefined;
  if (!isObject(value) || !urlText(value.key, 1, 200) || !urlText(value.query, 0, 2_000)) return null;
  return { key: value.key, query: value.query };
}

/** The entry a spool line holds, or null when it is not one (half-written, edited, from a bug). */
export function parseSpoolLine(line: string): SpoolEntry | null {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null;
  }
  // One line of spool.jsonl, as every version of the CLI writes it; what else it holds is left behind.
  if (!isObject(json) || !text(json.id, 1, 100) || !whole(json.sentAt, MAX_DATE_MS)) return null;
  const { id, sentAt, baseUrl, pulse } = json;
  if (!text(baseUrl, 0, 2_000) || !/^https?:\/\//.test(baseUrl) || !URL.canParse(baseUrl) || !isObject(pulse)) return null;
  const signal = signalOf(pulse.signal);
  const target = lineOf(pulse.line);
  const { token, rid, body, key, durationMs } = pulse;
  if (!urlText(token, 1, 200) || signal === null || target === null) return null;
  if (!optional(rid, (v): v is string => urlText(v, 0, 200)) || !optional(body, (v): v is string => typeof v === 'string')) return null;
  if (!optional(key, (v): v is string => typeof v === 'string' && /^[\x20-\x7e]{1,255}$/.test(v))) return null;
  if (!optional(durationMs, (v): v is number => whole(v, MAX_MEASURED_DURATION_MS))) return null;
  const entry: SpoolEntry = { id, baseUrl, pulse: { tokenOrSlug: token, signal, key: key ?? id, at: sentAt } };
  // Lines of older versions have no key: their id is as unique and as stable.
  if (target !== undefined) entry.pulse.line = target;
  if (rid !== undefined) entry.pulse.rid = rid;
  if (body !== undefined) entry.pulse.body = body;
  if (durationMs !== undefined) entry.pulse.durationMs = durationMs;
  return entry;
}
