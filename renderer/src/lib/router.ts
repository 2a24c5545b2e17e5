import { useSyncExternalStore } from 'react';

/**
 * Hash routing ("#/monitors/12"): the agent serves one index.html, the one-time sign-in code
 * travels in the fragment (never sent to a server or written to its logs), and the desktop
 * shell can open any route by setting the hash.
 */
export interface Route {
  /** "/monitors/12" */
  path: string;
  query: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [path, search = ''] = raw.split('?', 2) as [string, string?];
  return { path: path.startsWith('/') ? path : `/${path}`, query: new URLSearchParams(search) };
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseHash(hash);
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const target = `#${path}`;
  if (options.replace) window.history.replaceState(null, '', target);
  else window.location.hash = path;
  if (options.replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** Matches "/monitors/:id" style patterns; returns the params or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[i]!);
    else if (part !== got[i]) return null;
  }
  return params;
}
