/** The pulse token of seeded monitor `n` (1-based): a well-formed UUID v4 that seed.ts writes in SQL. */
export function monitorToken(n: number): string {
  return `${n.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** The same token as an SQL expression over the counter column `i`. */
export const MONITOR_TOKEN_SQL = "printf('%08x-0000-4000-8000-%012x', i, i)";

/** Pulse paths for `count` seeded monitors from number `first` on. */
export function pulsePaths(count: number, first = 1): string[] {
  return Array.from({ length: count }, (_, i) => `/api/pulse/${monitorToken(first + i)}`);
}
