import type { BrowserWindow } from 'electron';
import { IpcChannel } from './ipcChannels';
import { createMainWindow, revealWindow, type MainWindowOptions } from './window';
import type { TrayAction } from '../renderer/src/bridge';
import { describeError } from '../agent/domain/text/errorText';

/**
 * The dashboard routes in the URL fragment ("#/monitors/12"), so any route loads the one
 * index.html, under the agent's path when a proxy serves it under one.
 */
export function dashboardUrl(appBase: string, route: string): string {
  const base = new URL(appBase);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}/#${route.startsWith('/') ? route : `/${route}`}`;
}

/**
 * The one dashboard window, created on first use. A route from the tray or a popup goes to the
 * dashboard's own router when it listens for tray actions, else the window loads the route's URL.
 */
export class DashboardWindow {
  private window: BrowserWindow | null = null;
  private subscribedContents: number | null = null;
  /** The page that could not be loaded (an agent not reached yet); null once one loaded. */
  private failedUrl: string | null = null;

  constructor(private readonly options: MainWindowOptions) {}

  open(route: string): void {
    const url = dashboardUrl(this.options.appOrigin, route);
    if (!this.window || this.window.isDestroyed()) {
      const window = createMainWindow(this.options);
      this.window = window;
      this.subscribedContents = null;
      window.once('ready-to-show', () => revealWindow(window));
      window.webContents.on('did-start-navigation', (details) => {
        if (details.isMainFrame && !details.isSameDocument) this.subscribedContents = null;
      });
      // -3 is a load aborted by another (a new route): nothing failed.
      window.webContents.on('did-fail-load', (_event, code, _description, failedUrl, isMainFrame) => {
        if (isMainFrame && code !== -3) this.failedUrl = failedUrl;
      });
      window.webContents.on('did-finish-load', () => (this.failedUrl = null));
      void window.loadURL(url).catch((error: unknown) => this.options.log(`The dashboard did not load: ${describeError(error)}`));
      return;
    }
    if (this.subscribedContents === this.window.webContents.id) {
      const action: TrayAction = { type: 'navigate', route };
      this.window.webContents.send(IpcChannel.trayAction, action);
    } else {
      void this.window.loadURL(url).catch((error: unknown) => this.options.log(`The dashboard did not load: ${describeError(error)}`));
    }
    revealWindow(this.window);
  }

  /**
   * Brings the window forward as it is (a second launch, a Dock or tray-icon click): the page the
   * user is on, and what they typed in it, stay. Opens the overview when there is no window yet.
   */
  reveal(): void {
    if (!this.window || this.window.isDestroyed()) this.open('/');
    else revealWindow(this.window);
  }

  /**
   * Loads again the page that could not be loaded, once the agent is known to answer: a window
   * opened while it was not reached (the app started offline, the remote agent down) would show
   * Chromium's error page until the user thought of reloading it.
   */
  reloadIfFailed(): void {
    if (this.failedUrl === null || !this.window || this.window.isDestroyed()) return;
    const url = this.failedUrl;
    this.failedUrl = null;
    void this.window.loadURL(url).catch((error: unknown) => this.options.log(`The dashboard did not load: ${describeError(error)}`));
  }

  /** The dashboard in `contentsId` listens for tray actions (until it navigates away or reloads). */
  markSubscribed(contentsId: number): void {
    if (this.window && !this.window.isDestroyed() && this.window.webContents.id === contentsId) {
      this.subscribedContents = contentsId;
    }
  }
}
