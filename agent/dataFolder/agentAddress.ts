import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Where the agent running on a data folder listens, kept in the folder while it runs, so a
 * command on the same machine (`cronbeat signin`) finds it without being told its port.
 */

export interface AgentAddress {
  host: string;
  port: number;
  pid: number;
  /** The --public-url (or CRONBEAT_PUBLIC_URL) it was started with, which wins over the dashboard's; null when none. */
  publicUrl: string | null;
}

const addressFile = (dataDir: string) => join(dataDir, 'cronbeat.address');

/** Notes where this process's agent listens (private to the folder's owner, like everything in it). */
export function writeAgentAddress(dataDir: string, address: AgentAddress): void {
  writeFileSync(addressFile(dataDir), `${JSON.stringify(address)}\n`, { mode: 0o600 });
}

/** Where the agent of `dataDir` said it listens; null when none said, or what is there is not an address. */
export function readAgentAddress(dataDir: string): AgentAddress | null {
  try {
    const parsed = JSON.parse(readFileSync(addressFile(dataDir), 'utf8')) as Partial<AgentAddress> | null;
    if (typeof parsed?.host !== 'string' || !Number.isInteger(parsed.port) || !Number.isInteger(parsed.pid)) return null;
    return { host: parsed.host, port: parsed.port!, pid: parsed.pid!, publicUrl: typeof parsed.publicUrl === 'string' ? parsed.publicUrl : null };
  } catch {
    return null;
  }
}

/** Takes the note away when the agent stops; one another agent wrote since stays. */
export function removeAgentAddress(dataDir: string, pid: number): void {
  if (readAgentAddress(dataDir)?.pid === pid) rmSync(addressFile(dataDir), { force: true });
}
