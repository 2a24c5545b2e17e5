import type { Pulse } from './pulses';

/*
 * The spool's file format: one JSON line per pulse in spool.jsonl. Writing a line is here;
 * reading one back (checked with zod, loaded only when needed) is in spoolLine.ts.
 */

/** A pulse that could not be delivered, waiting in the spool (its event time is `pulse.at`). */
export interface SpoolEntry {
  id: string;
  /** The agent it was meant for. */
  baseUrl: string;
  pulse: Pulse;
}

/** The line that stores an entry. `sentAt` is the event time: the name older versions read. */
export function lineOf({ id, baseUrl, pulse }: SpoolEntry): string {
  const { at, ...rest } = pulse;
  return JSON.stringify({ id, sentAt: at, baseUrl, pulse: rest });
}
