/**
 * The whole main process connected to an agent on another machine (settings.json says so),
 * with only Electron replaced by the mock: the window shows that agent's dashboard with the
 * saved key, its failures raise popups and turn the tray red, and the tray pauses on it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

import { until as untilWithin } from '../helpers/until';

vi.mock('electron', () => import('./electronMock'));
const electron = await import('./electronMock');
const until = <T>(read: () => T | undefined | null | false, what: string, ms = 10_000) => untilWithin(read, what, ms);
const { IpcChannel } = await import('../../main/ipcChannels');

const dataDir = mkdtempSync(join(tmpdir(), 'cronbeat-desktop-remote-'));
const previousDataDir = process.env.CRONBEAT_DATA_DIR;
let remote: TestAgent;
let key: string;


const trusted = (url: string) => ({ senderFrame: { url, parent: null }, returnValue: undefined as unknown });

beforeAll(async () => {
  remote = await startTestAgent();
  key = remote.store.apiTokens.create({ companyId: 1, name: 'desktop', scope: 'full', now: Date.now() }).token;
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ agentMode: 'remote', remoteAgent: { url: `${remote.url}/`, key, access: 'full' } }));
  process.env.CRONBEAT_DATA_DIR = dataDir;
  await import('../../main/main');
  await until(() => electron.createdWindows[0], 'the dashboard window');
});

afterAll(async () => {
  electron.app.emit('will-quit', { preventDefault: () => {} });
  await until(() => electron.app.quit.mock.calls.length > 0, 'the app to stop');
  await remote.stop();
  process.env.CRONBEAT_DATA_DIR = previousDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the desktop app connected to a remote agent', () => {
  it('runs no agent of its own: the window shows the remote dashboard, and its page gets the saved key', () => {
    expect(electron.createdWindows[0].loadURL).toHaveBeenCalledWith(`${remote.url}/#/`);
    const event = trusted(`${remote.url}/#/`);
    electron.ipcMain.emit(IpcChannel.session, event);
    expect(event.returnValue).toEqual({ apiBase: remote.url, token: key });
    const untrusted = trusted('http://127.0.0.1:8787/');
    electron.ipcMain.emit(IpcChannel.session, untrusted);
    expect(untrusted.returnValue).toBeNull();
  });

  it('turns the tray red and raises one popup when a monitor fails there, and pauses it from the tray', async () => {
    const tray = electron.FakeTray.created.at(-1)!;
    await until(() => tray.tooltip === 'Cronbeat on 127.0.0.1: no monitors yet', 'the first read of the remote agent');
    const created = await remote.api('/api/monitors', { method: 'POST', json: { name: 'offsite backup', timezone: 'UTC', schedule: '0 2 * * *', duration: 30 } });
    const monitor = (await created.json()) as { id: number; token: string };
    const before = electron.FakeNotification.created.length;
    expect((await fetch(`${remote.url}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200);
    await until(() => (tray.image as { path: string }).path.includes('tray-failed'), 'the red tray');
    expect(tray.tooltip).toBe('Cronbeat on 127.0.0.1: 1 failed');
    const popups = await until(() => {
      const shown = electron.FakeNotification.created.slice(before);
      return shown.length > 0 && shown;
    }, 'the popup');
    expect(popups.map((p) => p.options.title)).toEqual(['offsite backup failed']);

    const menu = tray.menu!.template as MenuItemConstructorOptions[];
    expect(menu.map((item) => item.label)).not.toContain('Let servers reach this agent');
    const entry = menu.find((item) => item.label === 'offsite backup')!;
    const pause = (entry.submenu as MenuItemConstructorOptions[]).find((item) => item.label === 'Pause until resumed')!;
    (pause.click as () => void)();
    await until(() => remote.store.monitors.find(1, monitor.id)?.paused_at != null, 'the monitor paused on the remote agent');
    await until(() => !(tray.image as { path: string }).path.includes('tray-failed'), 'the tray no longer red');
    expect(electron.FakeNotification.created.slice(before)).toHaveLength(1);
  });

  it('loads the dashboard again once the agent answers, when it could not be loaded before (the app started offline)', async () => {
    const window = electron.createdWindows[0];
    const url = window.loadURL.mock.calls.at(-1)![0];
    const loads = window.loadURL.mock.calls.length;
    window.webContents.emit('did-fail-load', {}, -106, 'ERR_INTERNET_DISCONNECTED', url, true);
    // Anything the agent then tells the tray (here a new monitor) says it answers again.
    await remote.api('/api/monitors', { method: 'POST', json: { name: 'nightly sync', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 } });
    await until(() => window.loadURL.mock.calls.length > loads, 'the dashboard loaded again');
    expect(window.loadURL.mock.calls.at(-1)![0]).toBe(url);
    expect(window.loadURL.mock.calls).toHaveLength(loads + 1);
  });

  it('connects to another agent from the settings page only with an address and a key that may read it', async () => {
    const connect = (input: unknown) => electron.ipcMain.handlers.get(IpcChannel.connectAgent)!(trusted(`${remote.url}/#/settings`), input);
    expect(await connect({ url: 'ftp://backup-box', key: 'cb_12345678' })).toEqual({ ok: false, message: 'url: must start with http:// or https://.' });
    expect(await connect({ url: remote.url, key: '' })).toMatchObject({ ok: false, message: expect.stringMatching(/^key: /) });
    const pingKey = remote.store.apiTokens.create({ companyId: 1, name: 'ping', scope: 'ping', now: Date.now() }).token;
    expect(await connect({ url: remote.url, key: pingKey })).toMatchObject({ ok: false, message: expect.stringMatching(/ping or badge key/) });
    expect(await electron.ipcMain.handlers.get(IpcChannel.connectAgent)!(trusted('https://evil.example/'), { url: remote.url, key })).toMatchObject({ ok: false });
    expect(electron.app.relaunch).not.toHaveBeenCalled();

    const readKey = remote.store.apiTokens.create({ companyId: 1, name: 'watch', scope: 'read-only', now: Date.now() }).token;
    expect(await connect({ url: `${remote.url}/#/monitors`, key: readKey })).toEqual({ ok: true, message: expect.stringMatching(/read-only key/) });
    expect(electron.app.relaunch).toHaveBeenCalledTimes(1);
    const saved = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved).toMatchObject({ agentMode: 'remote', remoteAgent: { url: remote.url, key: readKey, access: 'read-only' } });
  });

  it('tells the settings page which agent it shows, never the key, and switches back to running the agent here', async () => {
    const choice = await electron.ipcMain.handlers.get(IpcChannel.agentChoice)!(trusted(`${remote.url}/#/settings`));
    // The agent shown (until the restart) and the one now saved: the read-only connection above.
    expect(choice).toEqual({ mode: 'remote', remote: { url: remote.url, access: 'read-only' } });
    expect(JSON.stringify(choice)).not.toMatch(/cb_/);

    electron.app.relaunch.mockClear();
    electron.ipcMain.emit(IpcChannel.runAgentHere, trusted(`${remote.url}/#/settings`));
    expect(electron.app.relaunch).toHaveBeenCalledTimes(1);
    const saved = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved).toMatchObject({ agentMode: 'local', remoteAgent: { url: remote.url } });
  });
});
