/**
 * How long something took, lasted or may last, in the same words wherever a person reads it:
 * alerts, popups and the dashboard alike ("850 ms", "4.3 s", "12 s", "3 min 5 s", "2 h 13 min",
 * "1 day 2 h 30 min"). A tenth of a second is shown under 10 s (short jobs differ there), whole
 * seconds under an hour, whole minutes above; no unit that is zero, so a setting of 1 day 30 min
 * is never shortened to "1 day".
 */
export function describeDuration(ms: number): string {
  if (ms < 999.5) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 9950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return seconds % 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds / 60} min`;
  const minutes = Math.round(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const parts: string[] = [];
  if (days) parts.push(`${days} ${days === 1 ? 'day' : 'days'}`);
  if (Math.floor(minutes / 60) % 24) parts.push(`${Math.floor(minutes / 60) % 24} h`);
  if (minutes % 60) parts.push(`${minutes % 60} min`);
  return parts.join(' ');
}
