import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./electronMock'));
const electron = await import('./electronMock');
const { createMainWindow, revealWindow, secureWebPreferences } = await import('../../main/window');
const { claimSingleInstance } = await import('../../main/singleInstance');

const origin = 'http://127.0.0.1:8787';
const options = (overrides: Partial<Parameters<typeof createMainWindow>[0]> = {}) => ({
  appOrigin: origin,
  preload: '/app/dist/main/preload.cjs',
  isQuitting: () => false,
  hasTray: () => true,
  log: vi.fn(),
  ...overrides,
});
const realPlatform = process.platform;
const setPlatform = (platform: string) => Object.defineProperty(process, 'platform', { value: platform });

afterEach(() => {
  setPlatform(realPlatform);
  // The mock refuses insecure windows; check every window these tests made once more.
  for (const window of electron.createdWindows) electron.assertSecureWebPreferences(window.options);
});

describe('the dashboard window', () => {
  it('is created with context isolation, the sandbox and no Node integration', () => {
    const window = createMainWindow(options()) as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    const prefs = window.options.webPreferences!;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false });
    expect(prefs.preload).toBe('/app/dist/main/preload.cjs');
    expect(secureWebPreferences('/x')).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
  });

  it('refuses to exist with unsafe preferences (the mock that guards every test)', () => {
    expect(() => new electron.BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: true, sandbox: true } })).toThrow(/Insecure/);
    expect(() => new electron.BrowserWindow({ webPreferences: { nodeIntegration: false, contextIsolation: false, sandbox: true } })).toThrow(/Insecure/);
    expect(() => new electron.BrowserWindow({ webPreferences: { nodeIntegration: false, contextIsolation: true, sandbox: false } })).toThrow(/Insecure/);
    expect(() => new electron.BrowserWindow({})).toThrow(/Insecure/);
  });

  it('hides to the tray on close, and really closes when quitting', () => {
    let quitting = false;
    const window = createMainWindow(options({ isQuitting: () => quitting })) as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    window.show();
    expect(window.userClose()).toBe(true);
    expect(window.isVisible()).toBe(false);
    quitting = true;
    expect(window.userClose()).toBe(false);
    expect(window.isDestroyed()).toBe(true);
  });

  it('minimizes instead of hiding when there is no tray to come back from', () => {
    const window = createMainWindow(options({ hasTray: () => false })) as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    window.show();
    expect(window.userClose()).toBe(true);
    expect(window.isMinimized()).toBe(true);
  });

  it('reloads the dashboard when its renderer crashes', () => {
    const window = createMainWindow(options()) as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    window.webContents.emit('render-process-gone', {}, { reason: 'crashed' });
    expect(window.webContents.reload).toHaveBeenCalledTimes(1);
    window.webContents.emit('render-process-gone', {}, { reason: 'clean-exit' });
    expect(window.webContents.reload).toHaveBeenCalledTimes(1);
  });

  it('shows the macOS dock icon only while the window is open', () => {
    setPlatform('darwin');
    electron.app.dock.show.mockClear();
    electron.app.dock.hide.mockClear();
    const window = createMainWindow(options()) as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    window.show();
    expect(electron.app.dock.show).toHaveBeenCalledTimes(1);
    window.userClose();
    expect(electron.app.dock.hide).toHaveBeenCalledTimes(1);
  });

  it('leaves the dock alone elsewhere', () => {
    setPlatform('linux');
    electron.app.dock.show.mockClear();
    const window = createMainWindow(options()) as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    window.show();
    expect(electron.app.dock.show).not.toHaveBeenCalled();
  });
});

describe('single instance', () => {
  it('quits a second launch and brings the first one’s window forward', () => {
    electron.app.singleInstanceLock = false;
    expect(claimSingleInstance(() => {})).toBe(false);

    electron.app.singleInstanceLock = true;
    const window = createMainWindow(options()) as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    window.show();
    window.minimize();
    window.hide();
    expect(claimSingleInstance(() => revealWindow(window as never))).toBe(true);
    electron.app.emit('second-instance');
    expect(window.isMinimized()).toBe(false);
    expect(window.isVisible()).toBe(true);
    expect(window.focus).toHaveBeenCalled();
  });
});
