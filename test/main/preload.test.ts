import { describe, expect, it, vi } from 'vitest';
import type { CronbeatBridge } from '../../renderer/src/bridge';
import { IpcChannel, type SessionInfo } from '../../main/ipcChannels';

vi.mock('electron', () => import('./electronMock'));

/** Runs the preload afresh against a fresh Electron mock whose main process answers `session`. */
async function loadPreload(session: SessionInfo | null) {
  vi.resetModules();
  const electron = await import('./electronMock');
  electron.ipcRenderer.sendSync.mockReturnValue(session);
  await import('../../main/preload');
  return electron;
}

describe('the preload bridge', () => {
  it('exposes window.cronbeat with the API base, the token, the platform and tray actions — not ipcRenderer', async () => {
    const { contextBridge, ipcRenderer } = await loadPreload({ apiBase: 'http://127.0.0.1:8787', token: 'cb_secret' });
    expect(ipcRenderer.sendSync).toHaveBeenCalledWith(IpcChannel.session);
    expect(contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, bridge] = contextBridge.exposeInMainWorld.mock.calls[0] as [string, CronbeatBridge];
    expect(name).toBe('cronbeat');
    expect(Object.keys(bridge).sort()).toEqual(['apiBase', 'desktopAgent', 'onTrayAction', 'platform', 'token']);
    expect(bridge).toMatchObject({ apiBase: 'http://127.0.0.1:8787', token: 'cb_secret', platform: process.platform });
    expect(Object.values(bridge)).not.toContain(ipcRenderer);

    const seen: unknown[] = [];
    const unsubscribe = bridge.onTrayAction((action) => seen.push(action));
    expect(ipcRenderer.send).toHaveBeenCalledWith(IpcChannel.trayActionsSubscribed);
    ipcRenderer.emit(IpcChannel.trayAction, {}, { type: 'navigate', route: '/monitors/2' });
    unsubscribe();
    ipcRenderer.emit(IpcChannel.trayAction, {}, { type: 'navigate', route: '/' });
    expect(seen).toEqual([{ type: 'navigate', route: '/monitors/2' }]);

    // Switching agents goes through three named channels, the key never coming back to the page.
    await bridge.desktopAgent!.choice();
    await bridge.desktopAgent!.connect('https://cronbeat.example.com', 'cb_key');
    bridge.desktopAgent!.runHere();
    expect(ipcRenderer.invoke.mock.calls).toEqual([[IpcChannel.agentChoice], [IpcChannel.connectAgent, { url: 'https://cronbeat.example.com', key: 'cb_key' }]]);
    expect(ipcRenderer.send).toHaveBeenLastCalledWith(IpcChannel.runAgentHere);
  });

  it('exposes nothing to a page the main process does not trust', async () => {
    const { contextBridge } = await loadPreload(null);
    expect(contextBridge.exposeInMainWorld).not.toHaveBeenCalled();
  });
});
