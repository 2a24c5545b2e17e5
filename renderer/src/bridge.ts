/**
 * The contract between the Electron preload (main/) and the dashboard.
 *
 * In the desktop window the preload exposes one object of this shape as `window.cronbeat`
 * through `contextBridge.exposeInMainWorld('cronbeat', …)`. In a plain browser it is absent and
 * the dashboard signs in with a one-time code or a pasted API token instead.
 */
export interface CronbeatBridge {
  /** Origin of the agent, e.g. "http://127.0.0.1:8787": no trailing slash and no "/api". */
  readonly apiBase: string;
  /** An API token of the local company; sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** `process.platform` of the desktop app: "darwin", "win32", "linux", … */
  readonly platform: string;
  /**
   * Calls `listener` for every action chosen in the tray menu or by clicking a popup.
   * Returns the function that unsubscribes.
   */
  onTrayAction(listener: (action: TrayAction) => void): () => void;
  /**
   * Which agent the app is a window onto (its own, or one on another machine) and switching it;
   * absent in older desktop apps. A switch restarts the app.
   */
  readonly desktopAgent?: DesktopAgentControl;
}

export interface DesktopAgentControl {
  /** The agent shown and the one saved to connect to (never its key); null from an untrusted page. */
  choice(): Promise<{ mode: 'local' | 'remote'; remote: { url: string; access: 'full' | 'read-only' } | null } | null>;
  /** Checks the address and key, then restarts onto that agent; `ok: false` says what is wrong. */
  connect(url: string, key: string): Promise<{ ok: boolean; message: string }>;
  /** Runs the agent inside the app again (restarts). */
  runHere(): void;
}

/** What the shell asks the dashboard to do. */
export type TrayAction =
  /** Show a dashboard route, e.g. "/monitors/12", "/notifications", "/settings". */
  { type: 'navigate'; route: string };

declare global {
  interface Window {
    cronbeat?: CronbeatBridge;
  }
}

/** The bridge when running inside the desktop app; undefined in a browser. */
export function desktopBridge(): CronbeatBridge | undefined {
  return typeof window === 'undefined' ? undefined : window.cronbeat;
}
