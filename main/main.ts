/**
 * The Electron main process: hosts the agent, draws the tray, owns the one window.
 * Every decision lives in a small module next to this one; this file only wires them.
 */
import { app, dialog, ipcMain, session } from 'electron';
import { join } from 'node:path';
import { startAgent } from '../agent/agent';
import { prepareDataDir } from '../agent/dataFolder/dataDir';
import { agentBinding, DESKTOP_COMPANY_ID, desktopOrigin, issueDesktopToken, startOnPreferredPort } from './agentHost';
import { launchedAtLogin, startAtLogin } from './autostart';
import { guardSession } from './harden';
import { IpcChannel, type SessionInfo } from './ipcChannels';
import { isMuted, muteUntil, type MuteChoice } from './mute';
import { electronNotifier } from './popups';
import { isTrustedSender } from './security';
import { loadSettings, saveSettings } from './settings';
import { claimSingleInstance } from './singleInstance';
import { TrayIcon } from './tray';
import { appIconPath } from './trayIcons';
import { REDRAW_DELAY_MS, REDRAW_EVERY_MS, trayModel } from './trayModel';
import { readTraySnapshot } from './agentSnapshot';
import { TRAY_HINT, statusNotifierWatcherPresent, trayIsMissing } from './trayHint';
import { DashboardWindow } from './dashboardWindow';

const log = (line: string) => console.log(`[cronbeat] ${line}`);

async function runDesktop(): Promise<void> {
  const assetsDir = join(app.getAppPath(), 'main', 'assets');
  const dataDir = app.getPath('userData');
  const settings = loadSettings(dataDir);
  const startedHidden = launchedAtLogin(process.argv, process.platform, () => app.getLoginItemSettings().wasOpenedAtLogin);
  if (process.platform === 'win32') app.setAppUserModelId('dev.cronbeat.app');
  if (process.platform === 'darwin') app.dock?.hide();

  let dashboard: DashboardWindow | null = null;
  const openRoute = (route: string) => dashboard?.open(route);
  const notifier = electronNotifier({
    isMuted: () => isMuted(settings.mutedUntil, Date.now()),
    openRoute,
    icon: appIconPath(assetsDir),
    log,
  });
  // In development `npm start` builds better-sqlite3 for Electron beside the Node build and names it here.
  const sqlite = { nativeBinding: process.env.CRONBEAT_SQLITE_BINDING };
  const agent = await startOnPreferredPort((port) => startAgent({ dataDir, ...agentBinding(settings), port, notifier, log, sqlite }));
  const origin = desktopOrigin(agent.port);
  const desktopToken = issueDesktopToken(agent.store.apiTokens, Date.now());
  log(`Agent listening on ${origin}`);

  guardSession(session.defaultSession, origin);
  ipcMain.on(IpcChannel.session, (event) => {
    const trusted = isTrustedSender(event.senderFrame, origin);
    event.returnValue = trusted ? ({ apiBase: origin, token: desktopToken.token } satisfies SessionInfo) : null;
  });
  ipcMain.on(IpcChannel.trayActionsSubscribed, (event) => {
    if (isTrustedSender(event.senderFrame, origin)) dashboard?.markSubscribed(event.sender.id);
  });

  const hasTray = !trayIsMissing(process.platform, process.env.XDG_CURRENT_DESKTOP, await statusNotifierWatcherPresent());
  let quitting = false;
  dashboard = new DashboardWindow({
    appOrigin: origin,
    preload: join(__dirname, 'preload.cjs'),
    icon: appIconPath(assetsDir),
    isQuitting: () => quitting,
    hasTray: () => hasTray,
    log,
  });

  let loginEnabled = startAtLogin.isEnabled();
  const tray = new TrayIcon(
    assetsDir,
    {
      open: openRoute,
      mute(choice: MuteChoice) {
        settings.mutedUntil = muteUntil(choice, new Date());
        saveSettings(dataDir, settings);
        redraw();
      },
      setStartAtLogin(enabled: boolean) {
        try {
          startAtLogin.set(enabled);
        } catch (error) {
          log(`Could not change "Start at login": ${String(error)}`);
        }
        loginEnabled = startAtLogin.isEnabled();
        redraw();
      },
      setReachableFromServers(enabled: boolean) {
        settings.reachableFromServers = enabled;
        saveSettings(dataDir, settings);
        app.relaunch(); // the agent binds its address once, at start
        app.quit();
      },
      quit: () => app.quit(),
    },
    () => openRoute('/'),
  );

  function redraw(): void {
    tray.render({
      model: trayModel(readTraySnapshot(agent.store, DESKTOP_COMPANY_ID)),
      agentUrl: origin,
      mutedUntil: settings.mutedUntil,
      startAtLogin: loginEnabled,
      reachableFromServers: settings.reachableFromServers,
      now: Date.now(),
    });
  }
  let pending: NodeJS.Timeout | null = null;
  const unsubscribe = agent.events.subscribe(() => {
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
    saveSettings(dataDir, settings);
    void dialog.showMessageBox({ type: 'info', title: 'Cronbeat', message: 'No tray on this desktop', detail: TRAY_HINT });
  }

  app.on('activate', () => openRoute('/'));
  revealOnSecondLaunch = () => openRoute('/');
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
    agent.store.apiTokens.revoke(desktopToken.id, Date.now());
    agent
      .close()
      .catch((error: unknown) => log(`The agent did not stop cleanly: ${String(error)}`))
      .finally(() => app.quit());
  });
}

// One data folder for the desktop app and the `cronbeat` CLI (CRONBEAT_DATA_DIR, else the OS's
// per-user folder), so tokens made on the command line work here; Chromium's own files go below it.
app.setPath('userData', prepareDataDir());
app.setPath('sessionData', join(app.getPath('userData'), 'browser'));

/** What a second launch does: bring the dashboard forward once it exists. */
let revealOnSecondLaunch = () => {};

if (!claimSingleInstance(() => revealOnSecondLaunch())) {
  app.quit();
} else {
  app
    .whenReady()
    .then(runDesktop)
    .catch((error: unknown) => {
      dialog.showErrorBox('Cronbeat could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
}
