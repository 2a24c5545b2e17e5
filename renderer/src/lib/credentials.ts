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

export function storeToken(token: string): void {
  safeStorage()?.setItem(storageKey, token);
}

/** Forgets `token` in this browser, unless another tab has since stored a newer one (which this tab adopts anyway). */
export function forgetToken(token: string): void {
  const storage = safeStorage();
  if (storage?.getItem(storageKey) === token) storage.removeItem(storageKey);
}

/**
 * Calls `listener` with the token another tab of this browser stored, or null when it forgot it
 * (signed out, or its session ended). The browser tells only the other tabs, never the one that wrote.
 */
export function onStoredTokenChange(listener: (token: string | null) => void): () => void {
  const handle = (event: StorageEvent) => {
    // A null key is the whole storage cleared (the browser's "clear site data").
    if (event.key === storageKey || event.key === null) listener(event.key === null ? null : event.newValue);
  };
  window.addEventListener('storage', handle);
  return () => window.removeEventListener('storage', handle);
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the session lasts as long as the tab
  }
}
