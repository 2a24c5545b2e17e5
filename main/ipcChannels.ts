/** IPC channel names shared by the main process and the preload (no Electron import here). */
export const IpcChannel = {
  /** Synchronous: the preload asks for the API base and token once, at load. */
  session: 'cronbeat:session',
  /** Main to renderer: something chosen in the tray or a popup (e.g. open a monitor's page). */
  trayAction: 'cronbeat:tray-action',
  /** Renderer to main: the dashboard listens for tray actions, so routes go to it instead of reloading. */
  trayActionsSubscribed: 'cronbeat:tray-actions-subscribed',
} as const;

/** What the preload receives over IpcChannel.session; null when the sender is not trusted. */
export interface SessionInfo {
  apiBase: string;
  token: string;
}
