import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./electronMock'));
const electron = await import('./electronMock');
const { DashboardWindow, dashboardUrl } = await import('../../main/dashboardWindow');
const { IpcChannel } = await import('../../main/ipcChannels');

const origin = 'http://127.0.0.1:8787';
const dashboard = () =>
  new DashboardWindow({ appOrigin: origin, preload: '/p.cjs', isQuitting: () => false, hasTray: () => true, log: vi.fn() });

beforeEach(() => {
  electron.createdWindows.length = 0;
});

describe('dashboardUrl', () => {
  it('puts the route in the fragment the dashboard routes by', () => {
    expect(dashboardUrl(origin, '/monitors/3')).toBe(`${origin}/#/monitors/3`);
    expect(dashboardUrl(`${origin}/`, '/monitors?status=failed')).toBe(`${origin}/#/monitors?status=failed`);
    expect(dashboardUrl(origin, 'notifications')).toBe(`${origin}/#/notifications`);
  });

  it("keeps the path of an agent served under a proxy's sub-path", () => {
    expect(dashboardUrl('https://example.com/cronbeat', '/monitors/3')).toBe('https://example.com/cronbeat/#/monitors/3');
    expect(dashboardUrl('https://example.com/cronbeat/', '/')).toBe('https://example.com/cronbeat/#/');
  });
});

describe('opening dashboard routes from the tray and popups', () => {
  it('creates the window on first use at the route, and shows it when ready', () => {
    const d = dashboard();
    d.open('/monitors/3');
    expect(electron.createdWindows).toHaveLength(1);
    const window = electron.createdWindows[0];
    expect(window.loadURL).toHaveBeenCalledWith(`${origin}/#/monitors/3`);
    expect(window.isVisible()).toBe(false);
    window.emit('ready-to-show');
    expect(window.isVisible()).toBe(true);
  });

  it('hands the route to the dashboard’s router once it listens for tray actions', () => {
    const d = dashboard();
    d.open('/');
    const window = electron.createdWindows[0];
    d.markSubscribed(window.webContents.id);
    window.hide();
    d.open('/monitors/9');
    expect(window.webContents.send).toHaveBeenCalledWith(IpcChannel.trayAction, { type: 'navigate', route: '/monitors/9' });
    expect(window.loadURL).toHaveBeenCalledTimes(1);
    expect(window.isVisible()).toBe(true);
    expect(electron.createdWindows).toHaveLength(1);
  });

  it('loads the URL when the page does not listen, or stopped listening by navigating', () => {
    const d = dashboard();
    d.open('/');
    const window = electron.createdWindows[0];
    d.open('/notifications');
    expect(window.loadURL).toHaveBeenLastCalledWith(`${origin}/#/notifications`);

    d.markSubscribed(window.webContents.id);
    window.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    d.open('/servers');
    expect(window.loadURL).toHaveBeenLastCalledWith(`${origin}/#/servers`);
    expect(window.webContents.send).not.toHaveBeenCalled();
  });

  it('ignores a subscription from other web contents, and makes a new window after the old one closed', () => {
    const d = dashboard();
    d.open('/');
    const first = electron.createdWindows[0];
    d.markSubscribed(first.webContents.id + 1000);
    d.open('/x');
    expect(first.webContents.send).not.toHaveBeenCalled();
    first.destroyed = true;
    d.open('/monitors/1');
    expect(electron.createdWindows).toHaveLength(2);
    expect(electron.createdWindows[1].loadURL).toHaveBeenCalledWith(`${origin}/#/monitors/1`);
  });

  it('reveals the window as it is, or opens the overview when there is none', () => {
    const d = dashboard();
    d.reveal();
    expect(electron.createdWindows[0].loadURL).toHaveBeenCalledWith(`${origin}/#/`);
    const window = electron.createdWindows[0];
    window.hide();
    d.reveal();
    expect(window.isVisible()).toBe(true);
    expect(window.loadURL).toHaveBeenCalledTimes(1);
    expect(electron.createdWindows).toHaveLength(1);
  });
});
