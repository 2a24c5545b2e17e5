/**
 * The API's timestamp format: UTC ISO 8601 with exactly six fractional digits and a Z,
 * e.g. 2026-11-21T14:45:03.123000Z. The database keeps integer milliseconds, so the last
 * three digits are always zero.
 */
export function toApiTimestamp(ms: number): string {
  // Lists call this 40,000 times, often with the value just seen (created_at = updated_at).
  if (ms === lastMs) return lastText;
  // toISOString always ends in ".mmmZ"; slicing is twice as fast as a regex.
  const text = `${new Date(ms).toISOString().slice(0, -1)}000Z`;
  lastMs = ms;
  lastText = text;
  return text;
}
let lastMs = NaN;
let lastText = '';

/** Like toApiTimestamp, but null stays null (for nullable columns such as deleted_at). */
export function toNullableApiTimestamp(ms: number | null): string | null {
  return ms === null ? null : toApiTimestamp(ms);
}
