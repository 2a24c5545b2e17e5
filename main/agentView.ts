import { startAgent } from '../agent/agent';
import { ApiClient } from '../agent/client/connection/api';
import type { Notifier } from '../agent/engine/popups/notifier';
import type { SqliteOptions } from '../agent/db/open';
import { agentBinding, DESKTOP_COMPANY_ID, desktopOrigin, issueDesktopToken, startOnPreferredPort } from './agentHost';
import { readTraySnapshot } from './agentSnapshot';
import { RemoteAgent } from './remoteAgent';
import { loadRemoteCursor, saveRemoteCursor } from './remoteCursor';
import { describeError } from '../agent/domain/text/errorText';
import type { RemoteAgentSettings, ShellSettings } from './settings';
import { remoteTrayModel, trayModel, type TrayModel } from './trayModel';

/**
 * The agent the app is a window onto: its own (run inside the app, as always) or one on
 * another machine. The shell draws the tray, opens the window and sends actions through this,
 * the same way for both.
 */
export interface AgentView {
  mode: 'local' | 'remote';
  /** The origin the window loads the dashboard from: the only one it shows, and the only page the bridge answers. */
  origin: string;
  /** Where the dashboard and the API are: the origin, and the path of a proxy that serves the agent under one. */
  base: string;
  /** The dashboard's key (the preload hands it to the page of `origin` only). */
  token: string;
  /** The agent's address as the menu shows it. */
  agentUrl: string;
  /** Whether the tray may pause monitors (a read-only key may not). */
  canPause: boolean;
  model(): TrayModel;
  pause(monitorId: number, until: number | null): Promise<void>;
  /** Calls `listener` when what the tray shows may have changed; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

const hourMinute = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

/** Pauses through the agent's API, so a pause from the tray is the same as one from the dashboard. */
function pauseThroughApi(origin: string, token: string) {
  const api = new ApiClient(origin, token);
  return async (monitorId: number, until: number | null) => {
    await api.pauseMonitor(monitorId, until === null ? null : new Date(until).toISOString());
  };
}

export interface LocalViewOptions {
  dataDir: string;
  settings: ShellSettings;
  notifier: Notifier;
  log: (line: string) => void;
  sqlite?: SqliteOptions;
}

/** Runs the agent inside the app (port 8787 when free) with a desktop token for the window. */
export async function localAgentView(options: LocalViewOptions): Promise<AgentView> {
  const { dataDir, settings, notifier, log, sqlite } = options;
  const agent = await startOnPreferredPort((port) => startAgent({ dataDir, ...agentBinding(settings), port, notifier, log, sqlite }));
  const origin = desktopOrigin(agent.port);
  const desktopToken = issueDesktopToken(agent.store.apiTokens, Date.now());
  log(`Agent listening on ${origin}`);
  return {
    mode: 'local',
    origin,
    base: origin,
    token: desktopToken.token,
    agentUrl: origin,
    canPause: true,
    model: () => trayModel(readTraySnapshot(agent.store, DESKTOP_COMPANY_ID, Date.now())),
    pause: pauseThroughApi(origin, desktopToken.token),
    onChange: (listener) => agent.events.subscribe(() => listener()),
    async close() {
      agent.store.apiTokens.revoke(desktopToken.id, Date.now());
      await agent.close();
    },
  };
}

export interface RemoteViewOptions {
  remote: RemoteAgentSettings;
  /** Where the app keeps which of its notifications were shown, across restarts. */
  dataDir: string;
  /** Raises a popup (the shell's notifier, which knows about muting). */
  notifier: Notifier;
  log: (line: string) => void;
}

/** Connects to an agent on another machine: nothing runs here but the follower. */
export function remoteAgentView({ remote, dataDir, notifier, log }: RemoteViewOptions): AgentView {
  const listeners = new Set<() => void>();
  let saveFailed = false;
  const agent = new RemoteAgent({
    url: remote.url,
    key: remote.key,
    access: remote.access,
    popup: (popup) => notifier.show(popup),
    onChange: () => listeners.forEach((listener) => listener()),
    log,
    timeOfDay: hourMinute,
    cursor: loadRemoteCursor(dataDir, remote.url),
    saveCursor(cursor) {
      try {
        saveRemoteCursor(dataDir, remote.url, cursor);
        saveFailed = false;
      } catch (error) {
        // Popups still come while the app runs; only the next start may show some again, or miss them.
        if (!saveFailed) log(`Could not save which notifications were shown: ${describeError(error)}`);
        saveFailed = true;
      }
    },
  });
  agent.start();
  const origin = new URL(remote.url).origin;
  log(`Connected to the agent at ${remote.url}`);
  return {
    mode: 'remote',
    origin,
    base: remote.url,
    token: remote.key,
    agentUrl: remote.url,
    canPause: agent.canChange,
    model: () => remoteTrayModel({ name: agent.name, snapshot: agent.snapshot, ...agent.status }, hourMinute),
    pause: (monitorId, until) => agent.pause(monitorId, until),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => agent.stop(),
  };
}
