import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { resolveTimeZone } from '../domain/time/timeZones';

/** Where zone files live on Linux and the BSDs; macOS links /etc/localtime into /var/db/timezone/zoneinfo. */
const ZONEINFO = '/usr/share/zoneinfo';

/**
 * The zone a TZ naming a file means (`:/etc/localtime`, `/usr/share/zoneinfo/Asia/Tokyo`,
 * `:Europe/Paris`), as libc and cron read it: the file's name under a zoneinfo folder, links
 * followed. Undefined for anything else (a zone's name, a POSIX rule such as `CET-1CEST`, a file
 * outside zoneinfo).
 */
function zoneOfTzFile(tz: string | undefined): string | undefined {
  if (!tz || !/^[:/]/.test(tz)) return undefined;
  const path = tz.replace(/^:/, '');
  let real: string;
  try {
    real = realpathSync(isAbsolute(path) ? path : join(ZONEINFO, path));
  } catch {
    return undefined;
  }
  const name = /\/zoneinfo\/(?:posix\/|right\/)?(.+)$/.exec(real)?.[1];
  return name === undefined ? undefined : resolveTimeZone(name).zone;
}

/**
 * This machine's time zone (TZ, a zone file's included, else the system's), by its current name:
 * Intl may report an old one (Asia/Calcutta for Asia/Kolkata), which agent/domain/time/timeZones.ts
 * maps. UTC when the machine says nothing usable.
 */
export function machineZone(): string {
  // Intl reads no file form of TZ, and guesses instead (no zone at all, or UTC): the file says.
  const fromFile = zoneOfTzFile(process.env.TZ);
  if (fromFile) return fromFile;
  const reported = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return resolveTimeZone(reported).zone ?? reported;
}

/**
 * The zone of a system under `root` (a container's, `--root`), which its systemd runs timers in:
 * where its /etc/localtime points (into its own zoneinfo folder, so the link is read, not followed
 * on this machine), else its /etc/timezone (Debian's). Undefined when it says neither.
 */
export function rootZone(root: string): string | undefined {
  try {
    const name = /\/zoneinfo\/(?:posix\/|right\/)?(.+)$/.exec(readlinkSync(join(root, 'etc/localtime')))?.[1];
    if (name !== undefined) return resolveTimeZone(name).zone;
  } catch {
    // Not a link (a copy of a zone file says no name), or not there: /etc/timezone may.
  }
  try {
    return resolveTimeZone(readFileSync(join(root, 'etc/timezone'), 'utf8').trim()).zone;
  } catch {
    return undefined;
  }
}
