import { shell, type Session, type WebContents } from 'electron';
import { decideNavigation, decideWindowOpen, isPermissionGranted } from './security';

/** Opens a link that security.ts already validated in the system browser; failures are only logged. */
function openInBrowser(url: string, log: (line: string) => void): void {
  shell.openExternal(url).catch((error: unknown) => log(`Could not open ${url} in the browser: ${String(error)}`));
}

/**
 * Applies the navigation, window.open and webview guards to the dashboard's web contents:
 * it can only ever show the agent's origin.
 */
export function guardWebContents(contents: WebContents, appOrigin: string, log: (line: string) => void): void {
  contents.on('will-navigate', (event) => {
    const decision = decideNavigation(event.url, appOrigin);
    if (decision.action === 'allow') return;
    event.preventDefault();
    if (decision.action === 'open-external') openInBrowser(decision.url, log);
  });
  contents.on('will-redirect', (event) => {
    if (decideNavigation(event.url, appOrigin).action !== 'allow') event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideWindowOpen(url, appOrigin);
    if (decision.action === 'allow') void contents.loadURL(url);
    if (decision.action === 'open-external') openInBrowser(decision.url, log);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Denies every permission request and check except the few in security.ts, from the app's origin only. */
export function guardSession(session: Session, appOrigin: string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionGranted(permission, details.requestingUrl, appOrigin));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin, appOrigin),
  );
}
