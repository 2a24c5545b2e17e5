/**
 * The window's trust rules as pure functions: the dashboard may only ever show the agent's own
 * origin; other http(s) links go to the system browser; everything else is refused.
 */

function parse(url: string | undefined | null): URL | null {
  if (!url) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Whether `url` is on the agent's origin (scheme, host and port all equal). */
export function isAppUrl(url: string | undefined | null, appOrigin: string): boolean {
  const parsed = parse(url);
  return parsed !== null && parsed.origin === new URL(appOrigin).origin;
}

/**
 * The link to hand to the system browser, or null when it must not be opened: only http and https,
 * no credentials in it, a host present, and not longer than browsers accept.
 */
export function externalLinkToOpen(url: string): string | null {
  if (url.length > 2048) return null;
  const parsed = parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return null;
  if (parsed.username || parsed.password || !parsed.hostname) return null;
  return parsed.toString();
}

/** What the window does with a navigation or window.open to `url`. */
export type LinkDecision = { action: 'allow' } | { action: 'open-external'; url: string } | { action: 'deny' };

/** In-app navigation stays; anything else leaves for the browser when safe, or goes nowhere. */
export function decideNavigation(url: string, appOrigin: string): LinkDecision {
  if (isAppUrl(url, appOrigin)) return { action: 'allow' };
  const external = externalLinkToOpen(url);
  return external ? { action: 'open-external', url: external } : { action: 'deny' };
}

/**
 * window.open never makes a new Electron window: an app link navigates the one window (reported as
 * 'allow' so the caller loads it there), other links follow decideNavigation.
 */
export const decideWindowOpen = decideNavigation;

/** Permissions the dashboard may use: only writing to the clipboard (its copy buttons), only from the app. */
const GRANTED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

export function isPermissionGranted(permission: string, requestingUrl: string | undefined, appOrigin: string): boolean {
  return GRANTED_PERMISSIONS.has(permission) && isAppUrl(requestingUrl, appOrigin);
}

/** IPC is answered only for the top frame of the app's own origin (never an iframe, never another site). */
export function isTrustedSender(
  frame: { url: string; parent: unknown } | null | undefined,
  appOrigin: string,
): boolean {
  return !!frame && frame.parent === null && isAppUrl(frame.url, appOrigin);
}
