/**
 * How long something took or lasted, in the same words wherever a person reads it (alerts,
 * popups, the CLI and the dashboard): "850 ms", "12 s", "2 min 5 s", "2 h 13 min", "3 days 4 h".
 * Two units at most: the second is dropped when it is zero, and nothing finer is shown.
 */
export function describeDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  const dayWord = `${days} ${days === 1 ? 'day' : 'days'}`;
  return hours % 24 ? `${dayWord} ${hours % 24} h` : dayWord;
}
