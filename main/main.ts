/**
 * The Electron main process: hosts the agent, draws the tray, owns the one window.
 * Every decision lives in a small module next to this one; this file only wires them.
 */
import { app, dialog, ipcMain, session } from 'electron';
import { join } from 'node:path';
import { prepareDataDir } from '../agent/dataFolder/dataDir';
import { checkAgent } from '../agent/client/connection/agentCheck';
import { localAgentView, remoteAgentView } from './agentView';
import { launchedAtLogin, startAtLogin } from './autostart';
import { guardSession } from './harden';
import { IpcChannel, type AgentChoice, type ConnectOutcome, type SessionInfo } from './ipcChannels';
import { isMuted, muteUntil, type MuteChoice } from './mute';
import { electronNotifier } from './popups';
import { burstingNotifier } from '../agent/engine/popups/popupBursts';
import { isTrustedSender } from './security';
import { loadSettings, saveSettings } from './settings';
import { claimSingleInstance } from './singleInstance';
import { TrayIcon } from './tray';
import { appIconPath } from './trayIcons';
import { REDRAW_DELAY_MS, REDRAW_EVERY_MS, readTrayModel } from './trayModel';
import { connectRequest } from './connectRequest';
import { TRAY_HINT, statusNotifierWatcherPresent, trayIsMissing } from './trayHint';
import { DashboardWindow } from './dashboardWindow';
import { describeError } from '../agent/domain/text/errorText';
import { redactSecrets } from '../agent/api/present/redact';

// The shell's own lines get the agent's redaction too: a URL or an error it quotes may carry a token.
const log = (line: string) => console.log(`[cronbeat] ${redactSecrets(line)}`);

async function runDesktop(): Promise<void> {
  const assetsDir = join(app.getAppPath(), 'main', 'assets');
  const dataDir = app.getPath('userData');
  const settings = loadSettings(dataDir);
  const startedHidden = launchedAtLogin(process.argv, process.platform, () => app.getLoginItemSettings().wasOpenedAtLogin);
  if (process.platform === 'win32') app.setAppUserModelId('dev.cronbeat.app');
  if (process.platform === 'darwin') app.dock?.hide();

  let dashboard: DashboardWindow | null = null;
  const openRoute = (route: string) => dashboard?.open(route);
  // Popups fold in bursts like channel messages (agent/engine/popups/popupBursts.ts).
  const notifier = burstingNotifier(
    electronNotifier({
      isMuted: () => isMuted(settings.mutedUntil, Date.now()),
      openRoute,
      icon: appIconPath(assetsDir),
      log,
    }),
    Date.now,
  );
  // In development `npm start` builds better-sqlite3 for Electron beside the Node build and names it here.
  const sqlite = { nativeBinding: process.env.CRONBEAT_SQLITE_BINDING };
  // The agent run here, or (settings) one on another machine this app is a window onto.
  const view =
    settings.agentMode === 'remote' && settings.remoteAgent
      ? remoteAgentView({ remote: settings.remoteAgent, dataDir, notifier, log })
      : await localAgentView({ dataDir, settings, notifier, log, sqlite });
  const { origin } = view;

  /** Saves settings.json; on a full or read-only disk says why in the log and gives false (never throws into a menu click). */
  const persist = (): boolean => {
    try {
      saveSettings(dataDir, settings);
      return true;
    } catch (error) {
      log(`Could not save ${join(dataDir, 'settings.json')}: ${describeError(error)}`);
      return false;
    }
  };

  /**
   * Saves which agent to show and starts again with it (an agent binds once, at start). When the
   * settings cannot be saved, a restart would come back as before: nothing changes and a dialog says why.
   */
  const switchAgent = (change: () => void): boolean => {
    const before = { ...settings };
    change();
    if (!persist()) {
      Object.assign(settings, before);
      dialog.showErrorBox('Cronbeat could not save its settings', `${join(dataDir, 'settings.json')} could not be written (is the disk full or read-only?). Nothing was changed.`);
      return false;
    }
    app.relaunch();
    app.quit();
    return true;
  };

  guardSession(session.defaultSession, origin);
  ipcMain.on(IpcChannel.session, (event) => {
    const trusted = isTrustedSender(event.senderFrame, origin);
    event.returnValue = trusted ? ({ apiBase: view.base, token: view.token } satisfies SessionInfo) : null;
  });
  ipcMain.handle(IpcChannel.agentChoice, (event): AgentChoice | null => {
    if (!isTrustedSender(event.senderFrame, origin)) return null;
    return { mode: view.mode, remote: settings.remoteAgent ? { url: settings.remoteAgent.url, access: settings.remoteAgent.access } : null };
  });
  ipcMain.handle(IpcChannel.connectAgent, async (event, input: unknown): Promise<ConnectOutcome> => {
    if (!isTrustedSender(event.senderFrame, origin)) return { ok: false, message: 'Not allowed from this page.' };
    const request = connectRequest(input);
    if (!request.ok) return request;
    const check = await checkAgent(request.url, request.key);
    if (!check.ok) return check;
    const switched = switchAgent(() => {
      settings.remoteAgent = { url: request.url, key: request.key, access: check.access };
      settings.agentMode = 'remote';
    });
    if (!switched) return { ok: false, message: 'Cronbeat could not save its settings (is the disk full or read-only?); nothing was changed.' };
    return { ok: true, message: `Connected (${check.access} key). Cronbeat restarts to show that agent.` };
  });
  ipcMain.on(IpcChannel.runAgentHere, (event) => {
    if (isTrustedSender(event.senderFrame, origin) && view.mode === 'remote') switchAgent(() => (settings.agentMode = 'local'));
  });
  ipcMain.on(IpcChannel.trayActionsSubscribed, (event) => {
    if (isTrustedSender(event.senderFrame, origin)) dashboard?.markSubscribed(event.sender.id);
  });

  const hasTray = !trayIsMissing(process.platform, process.env.XDG_CURRENT_DESKTOP, await statusNotifierWatcherPresent());
  let quitting = false;
  dashboard = new DashboardWindow({
    appOrigin: view.base,
    preload: join(__dirname, 'preload.cjs'),
    icon: appIconPath(assetsDir),
    isQuitting: () => quitting,
    hasTray: () => hasTray,
    log,
  });

  try {
    startAtLogin.refresh();
  } catch (error) {
    log(`Could not update the "Start at login" entry: ${describeError(error)}`);
  }
  let loginEnabled = startAtLogin.isEnabled();
  const tray = new TrayIcon(
    assetsDir,
    {
      open: openRoute,
      mute(choice: MuteChoice) {
        settings.mutedUntil = muteUntil(choice, new Date());
        persist(); // unsaved, the mute still holds until Cronbeat restarts
        redraw();
      },
      setStartAtLogin(enabled: boolean) {
        try {
          startAtLogin.set(enabled);
        } catch (error) {
          // A menu click has no other place to say it: the box alone would just untick itself.
          log(`Could not change "Start at login": ${String(error)}`);
          dialog.showErrorBox('Cronbeat could not change "Start at login"', describeError(error));
        }
        loginEnabled = startAtLogin.isEnabled();
        tray.invalidate();
        redraw();
      },
      setReachableFromServers(enabled: boolean) {
        // The agent binds its address once, at start; a switch that could not be saved unticks the box again.
        if (!switchAgent(() => (settings.reachableFromServers = enabled))) {
          tray.invalidate();
          redraw();
        }
      },
      pause(monitorId: number, until: number | null) {
        view.pause(monitorId, until).catch((error: unknown) => log(`Could not pause monitor ${monitorId}: ${String(error)}`));
      },
      runAgentHere: () => switchAgent(() => (settings.agentMode = 'local')),
      useSavedAgent: () => switchAgent(() => (settings.agentMode = 'remote')),
      connectToAgent: () => openRoute('/settings'),
      quit: () => app.quit(),
    },
    () => dashboard?.reveal(),
  );

  function redraw(): void {
    tray.render({
      model: readTrayModel(() => view.model()),
      agentUrl: view.agentUrl,
      canPause: view.canPause,
      agent: { mode: view.mode, savedRemote: settings.remoteAgent ? new URL(settings.remoteAgent.url).host : null },
      mutedUntil: settings.mutedUntil,
      startAtLogin: loginEnabled,
      reachableFromServers: settings.reachableFromServers,
      now: Date.now(),
      clock: Date.now,
    });
  }
  let pending: NodeJS.Timeout | null = null;
  const unsubscribe = view.onChange(() => {
    // The agent just said something: it answers, so a dashboard that could not load can now.
    dashboard?.reloadIfFailed();
    pending ??= setTimeout(() => {
      pending = null;
      redraw();
    }, REDRAW_DELAY_MS);
  });
  const ticker = setInterval(redraw, REDRAW_EVERY_MS);
  redraw();

  if (!startedHidden || !hasTray) openRoute('/');
  if (!hasTray && !settings.trayHintShown) {
    settings.trayHintShown = true;
    persist();
    void dialog.showMessageBox({ type: 'info', title: 'Cronbeat', message: 'No tray on this desktop', detail: TRAY_HINT });
  }

  app.on('activate', () => dashboard?.reveal());
  revealOnSecondLaunch = () => dashboard?.reveal();
  if (launchedWhileStarting) dashboard.reveal();
  // The app lives in the tray: closing the last window must not quit it.
  app.on('window-all-closed', () => {});
  app.on('before-quit', () => {
    quitting = true;
  });
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    unsubscribe();
    clearInterval(ticker);
    if (pending) clearTimeout(pending);
    tray.destroy();
    view
      .close()
      .catch((error: unknown) => log(`The agent did not stop cleanly: ${String(error)}`))
      .finally(() => {
        // Popups a burst holds back to sum up are counted as shown by the agent: shown now, or never.
        notifier.stop();
        app.quit();
      });
  });
}

/** A start that cannot go on: one dialog saying why (Electron's own would show a stack trace), then exit. */
function failToStart(error: unknown): void {
  dialog.showErrorBox('Cronbeat could not start', describeError(error));
  app.exit(1);
}

/** What a second launch does: bring the dashboard forward once it exists. */
let revealOnSecondLaunch = () => {
  // Still starting (its agent opening the database): the window is shown once there is one.
  launchedWhileStarting = true;
};
let launchedWhileStarting = false;

// One data folder for the desktop app and the `cronbeat` CLI (CRONBEAT_DATA_DIR, else the OS's
// per-user folder), so tokens made on the command line work here; Chromium's own files go below it.
let dataFolder: string | null = null;
try {
  dataFolder = prepareDataDir();
} catch (error) {
  failToStart(error);
}
if (dataFolder !== null) {
  app.setPath('userData', dataFolder);
  app.setPath('sessionData', join(app.getPath('userData'), 'browser'));
  if (!claimSingleInstance(() => revealOnSecondLaunch())) {
    app.quit();
  } else {
    app.whenReady().then(runDesktop).catch(failToStart);
  }
}
