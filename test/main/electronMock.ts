/**
 * A stand-in for the 'electron' module (Electron cannot be launched on our machines).
 * Use in a test file with: vi.mock('electron', () => import('./electronMock')).
 * Any BrowserWindow created with unsafe web preferences throws, failing the test that made it.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  loadURL = vi.fn(async (_url: string) => {});
  send = vi.fn();
  reload = vi.fn();
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
}

/** Every BrowserWindow the code under test created, in order. */
export const createdWindows: FakeBrowserWindow[] = [];

export function assertSecureWebPreferences(options: BrowserWindowConstructorOptions | undefined): void {
  const prefs = options?.webPreferences;
  if (!prefs || prefs.nodeIntegration !== false || prefs.contextIsolation !== true || prefs.sandbox !== true) {
    throw new Error(`Insecure BrowserWindow: ${JSON.stringify(prefs)}`);
  }
  if (prefs.nodeIntegrationInSubFrames || prefs.nodeIntegrationInWorker || prefs.webSecurity === false) {
    throw new Error(`Insecure BrowserWindow: ${JSON.stringify(prefs)}`);
  }
}

export class FakeBrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  visible = false;
  minimized = false;
  destroyed = false;
  loadURL = vi.fn(async (url: string) => this.webContents.loadURL(url));
  focus = vi.fn();
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    assertSecureWebPreferences(options);
    createdWindows.push(this);
  }
  show(): void {
    this.visible = true;
    this.emit('show');
  }
  hide(): void {
    this.visible = false;
    this.emit('hide');
  }
  minimize(): void {
    this.minimized = true;
  }
  restore(): void {
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Simulates the user closing the window; returns whether the close was prevented. */
  userClose(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (!prevented) {
      this.destroyed = true;
      this.emit('closed');
    }
    return prevented;
  }
}
export const BrowserWindow = FakeBrowserWindow;

export class FakeNotification extends EventEmitter {
  static supported = true;
  static created: FakeNotification[] = [];
  static isSupported(): boolean {
    return FakeNotification.supported;
  }
  shown = false;
  constructor(readonly options: { title: string; body: string; icon?: string }) {
    super();
    FakeNotification.created.push(this);
  }
  show(): void {
    this.shown = true;
  }
}
export const Notification = FakeNotification;

class FakeApp extends EventEmitter {
  singleInstanceLock = true;
  loginItem = { openAtLogin: false };
  dock = { show: vi.fn(async () => {}), hide: vi.fn() };
  isPackaged = false;
  quit = vi.fn();
  relaunch = vi.fn();
  exit = vi.fn();
  requestSingleInstanceLock(): boolean {
    return this.singleInstanceLock;
  }
  loginItemArgs: string[] = [];
  /** As on Windows, openAtLogin is true only when asked with the args the item was set with. */
  getLoginItemSettings(options?: { args?: string[] }) {
    const sameArgs = JSON.stringify(options?.args ?? []) === JSON.stringify(this.loginItemArgs);
    return { openAtLogin: this.loginItem.openAtLogin && (process.platform !== 'win32' || sameArgs) };
  }
  setLoginItemSettings = vi.fn((settings: { openAtLogin: boolean; args?: string[] }) => {
    this.loginItem = { openAtLogin: settings.openAtLogin };
    this.loginItemArgs = settings.args ?? [];
  });
  getAppPath(): string {
    return '/opt/cronbeat-app';
  }
  readonly paths = new Map<string, string>();
  setPath(name: string, path: string): void {
    this.paths.set(name, path);
  }
  getPath(name: string): string {
    const path = this.paths.get(name) ?? (name === 'sessionData' ? this.paths.get('userData') : undefined);
    if (!path) throw new Error(`No path ${name} in the Electron mock`);
    return path;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  setAppUserModelId = vi.fn();
}
export const app = new FakeApp();

export const shell = { openExternal: vi.fn(async (_url: string) => {}) };

export const session = {
  defaultSession: {
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
  },
};

export class FakeTray extends EventEmitter {
  static created: FakeTray[] = [];
  image: unknown;
  tooltip = '';
  menu: { template: unknown[] } | null = null;
  setImage = vi.fn((image: unknown) => (this.image = image));
  setToolTip = vi.fn((text: string) => (this.tooltip = text));
  setContextMenu = vi.fn((menu: { template: unknown[] }) => (this.menu = menu));
  destroy = vi.fn();
  constructor(image: unknown) {
    super();
    this.image = image;
    FakeTray.created.push(this);
  }
}
export const Tray = FakeTray;
export const Menu = { buildFromTemplate: (template: unknown[]) => ({ template }) };
export const nativeImage = { createFromPath: (path: string) => ({ path }) };

/** ipcMain: `on` listeners are the EventEmitter's; `handle` handlers are kept by channel for tests to invoke. */
export const ipcMain = Object.assign(new EventEmitter(), {
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    ipcMain.handlers.set(channel, handler);
  },
});
export const ipcRenderer = Object.assign(new EventEmitter(), { sendSync: vi.fn(), send: vi.fn(), invoke: vi.fn(async () => null) });
export const contextBridge = { exposeInMainWorld: vi.fn() };
export const dialog = { showMessageBox: vi.fn(async () => ({ response: 0 })), showErrorBox: vi.fn() };

