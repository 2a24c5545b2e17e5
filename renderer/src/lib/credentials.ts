import type { Credentials } from '../api/client';
import { desktopBridge } from '../bridge';

const storageKey = 'cronbeat.token';

/** Desktop: the bridge's token, never stored. Browser: the session token kept in localStorage. */
export function initialCredentials(): Credentials | null {
  const bridge = desktopBridge();
  if (bridge) return { base: bridge.apiBase.replace(/\/+$/, ''), token: bridge.token };
  const token = safeStorage()?.getItem(storageKey);
  return token ? { base: '', token } : null;
}

export function storeToken(token: string | null): void {
  const storage = safeStorage();
  if (!storage) return;
  if (token) storage.setItem(storageKey, token);
  else storage.removeItem(storageKey);
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the session lasts as long as the tab
  }
}
