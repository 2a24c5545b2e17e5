import { app, BrowserWindow, type WebPreferences } from 'electron';
import { guardWebContents } from './harden';

/** The only web preferences any Cronbeat window is created with. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

export interface MainWindowOptions {
  appOrigin: string;
  preload: string;
  icon?: string;
  /** Whether the app is quitting: then closing really closes instead of hiding to the tray. */
  isQuitting: () => boolean;
  /** Without a tray the window is the only way back, so closing minimizes instead of hiding. */
  hasTray: () => boolean;
  log: (line: string) => void;
}

/** On macOS the dock icon shows only while the window is open. */
function syncDock(visible: boolean): void {
  if (process.platform !== 'darwin' || !app.dock) return;
  if (visible) void app.dock.show();
  else app.dock.hide();
}

/** The dashboard window: loads the agent's own URL, hides to the tray on close. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Cronbeat',
    icon: options.icon,
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(options.preload),
  });
  guardWebContents(window.webContents, options.appOrigin, options.log);
  // A crashed or killed dashboard comes back by itself instead of leaving a blank window.
  window.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit' || window.isDestroyed()) return;
    options.log(`The dashboard's renderer stopped (${details.reason}); reloading it.`);
    window.webContents.reload();
  });
  window.on('close', (event) => {
    if (options.isQuitting()) return;
    event.preventDefault();
    if (options.hasTray()) window.hide();
    else window.minimize();
  });
  window.on('show', () => syncDock(true));
  window.on('hide', () => syncDock(false));
  window.on('closed', () => syncDock(false));
  return window;
}

/** Brings the window to the front: a second launch, a tray click or a popup click. */
export function revealWindow(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
}
