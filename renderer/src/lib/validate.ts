import { checkSchedule } from '../../../agent/domain/scheduleCheck';
import { findTimeZone } from '../../../agent/domain/timeZones';

/** Client-side checks that mirror the API's rules, so the form can answer while the user types. */

export function validateName(name: string): string | undefined {
  if (!name.trim()) return 'Give it a name.';
  if (name.length > 255) return 'At most 255 characters.';
  return undefined;
}

/**
 * A zone name, or a city or country that names one zone ("Paris", "india"); old names are
 * taken as their current one and abbreviations (EST) refused, by the API's own rule
 * (agent/domain/timeZones.ts).
 */
export function validateTimezone(zone: string): string | undefined {
  if (!zone.trim()) return 'Pick a time zone.';
  const found = findTimeZone(zone);
  if (found.zone !== undefined) return undefined;
  return found.suggestions.length > 1 && !/abbreviation/.test(found.error) ? 'Several time zones match: pick one below.' : found.error;
}

/** The API's own check (agent/domain/scheduleCheck.ts), so the form and the API never disagree. */
export function validateSchedule(schedule: string): string | undefined {
  return checkSchedule(schedule).error;
}

export function validateDuration(duration: string): string | undefined {
  if (!duration.trim()) return 'Give the grace: minutes after each run before the monitor fails.';
  const value = Number(duration);
  if (!Number.isInteger(value)) return 'A whole number of minutes.';
  if (value < 1 || value > 525600) return 'Between 1 minute and 525600 (a year).';
  return undefined;
}

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function validateIp(ip: string): string | undefined {
  const value = ip.trim();
  if (!value) return 'Enter the server’s IP address.';
  if (ipv4.test(value)) return undefined;
  // IPv6: let the URL parser decide, it knows every compressed form.
  if (value.includes(':')) {
    try {
      new URL(`http://[${value}]/`);
      return undefined;
    } catch {
      // fall through
    }
  }
  return 'Not an IPv4 or IPv6 address.';
}

export function validateIdentifier(identifier: string): string | undefined {
  if (!identifier) return 'The name the cronbeat CLI reports for this server (e.g. its hostname).';
  if (identifier.length > 64) return 'At most 64 characters.';
  if (!/^[A-Za-z0-9._-]+$/.test(identifier)) return 'Only letters, digits, dots, dashes and underscores.';
  return undefined;
}

/** What a user may paste as a certificate's host: a bare name, or a URL whose host is taken. */
export function hostOf(input: string): string {
  return input.trim().replace(/^https?:\/\//, '').replace(/\/.*$/, '');
}

export function validateHostname(hostname: string): string | undefined {
  return hostOf(hostname) ? undefined : 'Enter a hostname, e.g. example.com';
}

function wholeNumberBetween(raw: string, min: number, max: number): boolean {
  const value = Number(raw);
  return raw.trim() !== '' && Number.isInteger(value) && value >= min && value <= max;
}

export function validatePort(port: string): string | undefined {
  return wholeNumberBetween(port, 1, 65535) ? undefined : 'A port from 1 to 65535.';
}

export function validateWarnDays(days: string): string | undefined {
  return wholeNumberBetween(days, 1, 365) ? undefined : 'From 1 to 365 days.';
}
