import { resolveTimeZone } from '../domain/time/timeZones';

/**
 * This machine's time zone (TZ, else the system's), by its current name: Intl may report an
 * old one (Asia/Calcutta for Asia/Kolkata), which agent/domain/time/timeZones.ts maps. UTC when
 * the machine says nothing usable.
 */
export function machineZone(): string {
  const reported = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return resolveTimeZone(reported).zone ?? reported;
}
