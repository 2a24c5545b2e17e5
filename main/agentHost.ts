/** Starting the agent inside the desktop app: the well-known port when free, another one otherwise. */

/** Job scripts on this machine find the agent here without configuration. */
export const PREFERRED_PORT = 8787;

/** The desktop app shows company 1, the one a fresh install creates. */
export const DESKTOP_COMPANY_ID = 1;

/** The name of the API token the desktop window signs in with (one live at a time). */
export const DESKTOP_TOKEN_NAME = 'Cronbeat desktop window';

function isAddressInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EADDRINUSE';
}

/** Starts on PREFERRED_PORT; when it is taken, on a port the OS picks (0). Other errors propagate. */
export async function startOnPreferredPort<T>(start: (port: number) => Promise<T>): Promise<T> {
  try {
    return await start(PREFERRED_PORT);
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    return start(0);
  }
}

export interface TokenStore {
  create(input: { companyId: number; name: string; now: number }): { id: number; token: string };
  list(): Array<{ id: number; name: string; revoked_at: number | null }>;
  revoke(id: number, now: number): boolean;
}

/**
 * A fresh token for the desktop window. Earlier desktop tokens (left by a crash) are revoked
 * first, so exactly one is live while the app runs; revoke the returned id on quit.
 */
export function issueDesktopToken(tokens: TokenStore, now: number): { id: number; token: string } {
  for (const row of tokens.list()) {
    if (row.name === DESKTOP_TOKEN_NAME && row.revoked_at === null) tokens.revoke(row.id, now);
  }
  return tokens.create({ companyId: DESKTOP_COMPANY_ID, name: DESKTOP_TOKEN_NAME, now });
}

/** Where the desktop app's agent listens: this machine only, unless the user let servers reach it. */
export function agentBinding(settings: { reachableFromServers: boolean; allowedHosts: string[] }): { host: string; allowedHosts: string[] } {
  return { host: settings.reachableFromServers ? '0.0.0.0' : '127.0.0.1', allowedHosts: settings.allowedHosts };
}

/** The address the desktop window itself uses: loopback, which the agent answers on in both bindings. */
export function desktopOrigin(port: number): string {
  return `http://127.0.0.1:${port}`;
}
