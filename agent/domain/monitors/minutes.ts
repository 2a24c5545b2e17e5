/*
 * A monitor's minutes (its grace, its max run time) wherever they are set: the API, a job's
 * line, the CLI and the dashboard's form take the same range, so none accepts what another refuses.
 */

/** The most minutes a grace or a max run time may be: a year (more would silence a monitor for good). */
export const MAX_MINUTES = 525_600;

/** What such a field must be, in the words every refusal uses. */
export const WHOLE_MINUTES = `a whole number of minutes from 1 to ${MAX_MINUTES}`;

/** `text` as whole minutes from 1 to MAX_MINUTES (digits only, as a command line or a query gives them); null for anything else. */
export function wholeMinutes(text: string): number | null {
  if (!/^\d{1,6}$/.test(text)) return null;
  const minutes = Number(text);
  return minutes >= 1 && minutes <= MAX_MINUTES ? minutes : null;
}
