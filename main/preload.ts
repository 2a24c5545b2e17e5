/**
 * The dashboard's one bridge to the shell (sandboxed preload: only 'electron' is available).
 * It exposes `window.cronbeat` as renderer/src/bridge.ts defines it, never ipcRenderer itself.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { CronbeatBridge, TrayAction } from '../renderer/src/bridge';
import { IpcChannel, type SessionInfo } from './ipcChannels';

// Synchronous once at load, so the dashboard reads plain strings; main answers null to an untrusted page.
const sessionInfo = ipcRenderer.sendSync(IpcChannel.session) as SessionInfo | null;

if (sessionInfo) {
  const bridge: CronbeatBridge = {
    apiBase: sessionInfo.apiBase,
    token: sessionInfo.token,
    platform: process.platform,
    onTrayAction(listener: (action: TrayAction) => void): () => void {
      const forward = (_event: IpcRendererEvent, action: TrayAction) => listener(action);
      ipcRenderer.on(IpcChannel.trayAction, forward);
      ipcRenderer.send(IpcChannel.trayActionsSubscribed);
      return () => {
        ipcRenderer.removeListener(IpcChannel.trayAction, forward);
      };
    },
    desktopAgent: {
      choice: () => ipcRenderer.invoke(IpcChannel.agentChoice),
      connect: (url: string, key: string) => ipcRenderer.invoke(IpcChannel.connectAgent, { url, key }),
      runHere: () => ipcRenderer.send(IpcChannel.runAgentHere),
    },
  };
  contextBridge.exposeInMainWorld('cronbeat', bridge);
}
