import { statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveCronTimeZone, type ZoneAnswer } from '../../domain/time/timeZones';

/** Where Debian's cron (through the C library) finds the zone CRON_TZ names. */
const ZONEINFO = '/usr/share/zoneinfo';

function isZoneFile(zone: string): boolean {
  try {
    return statSync(join(ZONEINFO, zone)).isFile();
  } catch {
    return false;
  }
}

/** The zone a crontab line runs in, from its CRON_TZ as cron on this machine reads it (resolveCronTimeZone). */
export function cronZone(name: string): ZoneAnswer {
  return resolveCronTimeZone(name, isZoneFile);
}
