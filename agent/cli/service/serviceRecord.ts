import { readFileSync, rmSync } from 'node:fs';
import { replaceFile } from './replaceFile';

/*
 * What `cronbeat service install` knew when it wrote the unit, kept as data for `service
 * status`, so status never reads a flag back out of the unit's text.
 */

export interface ServiceRecord {
  /** Where this machine reaches the agent (from serve's --host and --port); null for --port 0, chosen at each start. */
  url: string | null;
}

export function writeServiceRecord(file: string, record: ServiceRecord): void {
  replaceFile(file, `${JSON.stringify(record, null, 1)}\n`, 0o644);
}

/** The record, or null when there is none (a service installed by an older cronbeat) or it is not one. */
export function readServiceRecord(file: string): ServiceRecord | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServiceRecord> | null;
    return parsed && (typeof parsed.url === 'string' || parsed.url === null) ? { url: parsed.url } : null;
  } catch {
    return null;
  }
}

export function removeServiceRecord(file: string): void {
  rmSync(file, { force: true });
}
