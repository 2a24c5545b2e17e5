/**
 * What went wrong, for a log line or a person: an Error's message, or whatever else was thrown
 * as text. Callers that know more (a socket's code, a timeout) say that first and fall back here.
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
