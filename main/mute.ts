/** Muting popups from the tray. Notifications are still recorded by the agent; only popups are held. */
export type MuteChoice = 'hour' | 'tomorrow' | 'off';

const HOUR = 60 * 60 * 1000;
/** "Until tomorrow" ends when the working day starts: 08:00 local time on the next calendar day. */
export const TOMORROW_HOUR = 8;

/**
 * When a mute chosen at `now` ends, in epoch ms; null for 'off' (popups on).
 * `now` is a Date so the local calendar (and its daylight-saving shifts) decides "tomorrow".
 */
export function muteUntil(choice: MuteChoice, now: Date): number | null {
  if (choice === 'off') return null;
  if (choice === 'hour') return now.getTime() + HOUR;
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, TOMORROW_HOUR, 0, 0, 0);
  return tomorrow.getTime();
}

/**
 * The longest a mute can last: "until tomorrow" chosen at midnight, on a day of 25 hours. A
 * saved end further out was set while the clock was wrong (or by hand) and would never end.
 */
export const LONGEST_MUTE_MS = 25 * HOUR + TOMORROW_HOUR * HOUR;

/** Whether popups are held at `now`; a mute that has run out, or could never have been chosen, counts as off. */
export function isMuted(mutedUntil: number | null, now: number): boolean {
  return mutedUntil !== null && now < mutedUntil && mutedUntil - now <= LONGEST_MUTE_MS;
}

/** The menu's status line while popups are muted ("Popups muted until 17:20"); null when they are on. */
export function activeMuteLabel(mutedUntil: number | null, now: number): string | null {
  if (!isMuted(mutedUntil, now)) return null;
  const end = new Date(mutedUntil as number);
  const time = `${String(end.getHours()).padStart(2, '0')}:${String(end.getMinutes()).padStart(2, '0')}`;
  const sameDay = end.toDateString() === new Date(now).toDateString();
  return `Popups muted until ${sameDay ? time : `tomorrow ${time}`}`;
}
