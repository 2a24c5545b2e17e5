import type { MaintenanceWindowFields } from '../../../agent/db/maintenanceWindows';
import { at, type engineFixture } from '../engineFixture';

/* Timelines of monitors and maintenance windows, walked through the loop a step at a time. */

type Fixture = ReturnType<typeof engineFixture>;
const MINUTE = 60_000;

/** A one-off window from `starts` to `ends` (UTC times), over every monitor unless `cover` says whose. */
export const oneOff = (starts: string, ends: string, cover: Partial<MaintenanceWindowFields> = {}): MaintenanceWindowFields => ({
  name: 'upgrade',
  startsAt: at(starts),
  endsAt: at(ends),
  schedule: null,
  timezone: null,
  durationMinutes: null,
  monitorIds: [],
  tags: [],
  ...cover,
});

/** The alerts `fixture` raised so far, as "kind at" (UTC hours and minutes). */
export function alerts(fixture: Fixture): string[] {
  return fixture.notifications().map((n) => `${n.alert!.event} ${n.alert!.at.slice(11, 16)}`);
}

/**
 * Runs the loop from `from` to `to` (every 30 s), a job reporting success 20 s after each of
 * `runs` (UTC times), as `cronbeat run` would. Returns the alerts raised meanwhile, as "kind at".
 */
export async function walk(fixture: Fixture, token: string, from: string, to: string, runs: string[] = []): Promise<string[]> {
  const before = fixture.notifications().length;
  const pulses = runs.map((run) => at(run) + 20_000).sort((a, b) => a - b);
  for (let now = at(from); now <= at(to); now += MINUTE / 2) {
    while (pulses.length > 0 && pulses[0] <= now) await fixture.pulse(token, pulses.shift()!);
    await fixture.step(now);
  }
  return alerts(fixture).slice(before);
}

/** Every `everyMinutes` from `from` up to (not including) `to`, as ISO times, less those in `skip`. */
export function runsBetween(from: string, to: string, everyMinutes: number, skip?: [string, string]): string[] {
  const runs: string[] = [];
  for (let t = at(from); t < at(to); t += everyMinutes * MINUTE) {
    if (skip && t >= at(skip[0]) && t < at(skip[1])) continue;
    runs.push(new Date(t).toISOString());
  }
  return runs;
}
