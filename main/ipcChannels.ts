/** IPC channel names shared by the main process and the preload (no Electron import here). */
export const IpcChannel = {
  /** Synchronous: the preload asks for the API base and token once, at load. */
  session: 'cronbeat:session',
  /** Main to renderer: something chosen in the tray or a popup (e.g. open a monitor's page). */
  trayAction: 'cronbeat:tray-action',
  /** Renderer to main: the dashboard listens for tray actions, so routes go to it instead of reloading. */
  trayActionsSubscribed: 'cronbeat:tray-actions-subscribed',
  /** Renderer to main (invoke): which agent the app shows (AgentChoice; never the key). */
  agentChoice: 'cronbeat:agent-choice',
  /** Renderer to main (invoke): connect to an agent on another machine ({url, key} → ConnectOutcome). */
  connectAgent: 'cronbeat:connect-agent',
  /** Renderer to main: run the agent inside the app again. */
  runAgentHere: 'cronbeat:run-agent-here',
} as const;

/** Which agent the desktop app shows: its own, or one elsewhere (whose key stays in the main process). */
export interface AgentChoice {
  mode: 'local' | 'remote';
  remote: { url: string; access: 'full' | 'read-only' } | null;
}

/** What connecting answered: on success the app restarts onto that agent. */
export type ConnectOutcome = { ok: true; message: string } | { ok: false; message: string };

/** What the preload receives over IpcChannel.session; null when the sender is not trusted. */
export interface SessionInfo {
  apiBase: string;
  token: string;
}
