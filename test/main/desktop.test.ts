/**
 * The whole main process (main/main.ts) against a real agent on a real port and real SQLite,
 * with only Electron replaced by the mock: the window, the bridge, the tray following a failure.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { REDRAW_EVERY_MS } from '../../main/trayModel';

import { until as untilWithin } from '../helpers/until';

vi.mock('electron', () => import('./electronMock'));
const electron = await import('./electronMock');
const until = <T>(read: () => T | undefined | null | false, what: string, ms = 5000) => untilWithin(read, what, ms);
const { IpcChannel } = await import('../../main/ipcChannels');

const dataDir = mkdtempSync(join(tmpdir(), 'cronbeat-desktop-'));
const previousDataDir = process.env.CRONBEAT_DATA_DIR;
// Holds 8787, so the test never takes the well-known port (and proves the fallback).
const blocker = createServer();

/**
 * Whether the blocker got 8787. Held by someone else (an agent of yours, or this file in a second
 * suite run beside this one), it is tried again for a while: a holder that lets go before the app
 * starts would hand 8787 to the app. One holding it for good keeps it from the app as well.
 */
async function holdWellKnownPort(): Promise<void> {
  const end = Date.now() + 15_000;
  while (
    !(await new Promise<boolean>((resolve) => {
      const taken = () => resolve(false);
      blocker.once('error', taken);
      blocker.listen(8787, '127.0.0.1', () => {
        blocker.off('error', taken);
        resolve(true);
      });
    })) &&
    Date.now() < end
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}


function askSession(frameUrl: string, parent: unknown = null): unknown {
  const event = { senderFrame: { url: frameUrl, parent }, returnValue: undefined as unknown };
  electron.ipcMain.emit(IpcChannel.session, event);
  return event.returnValue;
}

let origin: string;
beforeAll(async () => {
  await holdWellKnownPort();
  process.env.CRONBEAT_DATA_DIR = dataDir;
  await import('../../main/main');
  const window = await until(() => electron.createdWindows[0], 'the dashboard window');
  const url = await until(() => window.loadURL.mock.calls[0]?.[0] as string | undefined, 'the window to load');
  origin = new URL(url).origin;
});

/** Quits as the app menu's Quit does, and waits for the agent to stop. */
async function quit(): Promise<void> {
  let prevented = false;
  electron.app.emit('will-quit', { preventDefault: () => (prevented = true) });
  expect(prevented).toBe(true);
  await until(() => electron.app.quit.mock.calls.length > 0, 'the agent to stop');
}

afterAll(async () => {
  if (electron.app.quit.mock.calls.length === 0) await quit();
  blocker.close();
  process.env.CRONBEAT_DATA_DIR = previousDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the desktop app', () => {
  it('serves the agent on a free port when 8787 is taken, keeps its data in the shared data folder, and opens the dashboard', () => {
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(origin).not.toBe('http://127.0.0.1:8787');
    expect(electron.app.getPath('userData')).toBe(dataDir);
    const window = electron.createdWindows[0];
    expect(window.loadURL).toHaveBeenCalledWith(`${origin}/#/`);
    window.emit('ready-to-show');
    expect(window.isVisible()).toBe(true);
  });

  it('gives the bridge a working token, only for its own page', async () => {
    const session = askSession(`${origin}/#/`) as { apiBase: string; token: string };
    expect(session.apiBase).toBe(origin);
    const response = await fetch(`${origin}/api/monitors`, { headers: { Authorization: `Bearer ${session.token}` } });
    expect(response.status).toBe(200);
    expect(askSession('https://evil.example/')).toBeNull();
    expect(askSession(`${origin}/`, { url: origin })).toBeNull();
  });

  it('turns the tray red within a second of a failure, with the monitor in the menu', async () => {
    const { token } = askSession(`${origin}/#/`) as { token: string };
    const tray = electron.FakeTray.created.at(-1)!;
    expect(tray.image).toEqual({ path: expect.stringMatching(/tray-ok/) });
    const created = await fetch(`${origin}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nightly backup', timezone: 'UTC', schedule: '0 2 * * *', duration: 30 }),
    });
    const monitor = (await created.json()) as { id: number; token: string };
    const failedAt = Date.now();
    expect((await fetch(`${origin}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200);
    // Drawn REDRAW_DELAY_MS after the agent's event (under a second, see trayModel.test); the
    // bound here only tells the redraw from the 30 s ticker's, with room for a busy machine
    // (5 s, and 1 s for the way back, were missed under load).
    await until(() => (tray.image as { path: string }).path.includes('tray-failed'), 'the red tray', REDRAW_EVERY_MS / 3);
    expect(Date.now() - failedAt).toBeLessThan(REDRAW_EVERY_MS / 3);
    expect(tray.tooltip).toBe('Cronbeat: 1 failed');
    const menu = tray.menu!.template as MenuItemConstructorOptions[];
    const entry = menu.find((item) => item.label === 'nightly backup')!;
    const [open] = entry.submenu as MenuItemConstructorOptions[];
    (open.click as () => void)();
    expect(electron.createdWindows[0].loadURL).toHaveBeenLastCalledWith(`${origin}/#/monitors/${monitor.id}`);

    expect((await fetch(`${origin}/api/pulse/${monitor.token}`)).status).toBe(200);
    await until(() => (tray.image as { path: string }).path.includes('tray-ok'), 'the tray back to ok');
  });

  it('mutes and stays up when the data folder refuses settings.json (a full disk), and does not restart into the old settings', () => {
    const blocked = join(dataDir, 'settings.json.tmp');
    mkdirSync(blocked); // writing the settings now fails, as on a full or read-only disk
    try {
      const tray = electron.FakeTray.created.at(-1)!;
      const menu = () => tray.menu!.template as MenuItemConstructorOptions[];
      const mute = menu().find((item) => item.label === 'Mute popups')!.submenu as MenuItemConstructorOptions[];
      expect(() => (mute.find((item) => item.label === 'For 1 hour')!.click as () => void)()).not.toThrow();
      expect((menu().find((item) => item.label === 'Mute popups')!.submenu as MenuItemConstructorOptions[])[0].label).toMatch(/^Popups muted until/);

      const reach = menu().find((item) => item.label === 'Let servers reach this agent')!;
      expect(() => (reach.click as (item: { checked: boolean }) => void)({ checked: true })).not.toThrow();
      expect(electron.app.relaunch).not.toHaveBeenCalled();
      expect(electron.dialog.showErrorBox).toHaveBeenCalledWith('Cronbeat could not save its settings', expect.stringContaining('settings.json'));
      (menu().find((item) => item.label === 'Mute popups')!.submenu as MenuItemConstructorOptions[]).find((item) => item.label === 'Off')!.click!(
        {} as never, undefined, {} as never,
      );
    } finally {
      rmSync(blocked, { recursive: true, force: true });
    }
  });

  it('raises a native popup for the failure, which opens the monitor', () => {
    const popup = electron.FakeNotification.created.find((n) => /nightly backup/.test(`${n.options.title} ${n.options.body}`));
    expect(popup?.shown).toBe(true);
    electron.createdWindows[0].hide();
    popup!.emit('click');
    expect(electron.createdWindows[0].loadURL).toHaveBeenLastCalledWith(expect.stringMatching(new RegExp(`^${origin}/#/monitors/\\d+$`)));
    expect(electron.createdWindows[0].isVisible()).toBe(true);
  });

  it('brings the window forward on a second launch or a Dock click, without reloading the page the user is on', () => {
    const window = electron.createdWindows[0];
    window.hide();
    const loads = window.loadURL.mock.calls.length;
    electron.app.emit('second-instance');
    expect(window.isVisible()).toBe(true);
    window.hide();
    electron.app.emit('activate');
    expect(window.isVisible()).toBe(true);
    expect(window.loadURL.mock.calls.length).toBe(loads);
    expect(window.webContents.send).not.toHaveBeenCalledWith(IpcChannel.trayAction, expect.anything());
  });

  it('keeps secrets out of its own log lines (a webhook link the browser could not open)', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    electron.shell.openExternal.mockRejectedValueOnce(new Error('no browser'));
    try {
      const hook = 'https://hooks.slack.com/services/T0AAAAAAA/B0BBBBBBB/sEcReTsEcReTsEcReT';
      electron.createdWindows[0].webContents.emit('will-navigate', { url: hook, preventDefault: () => {} });
      await until(() => lines.some((line) => line.includes('Could not open')), 'the log line');
      expect(lines.join('\n')).not.toContain('sEcReT');
    } finally {
      spy.mockRestore();
    }
  });

  it('says in a dialog why "Start at login" could not be changed (a read-only config folder), and leaves the box as it was', () => {
    const blocked = join(dataDir, 'not-a-folder');
    writeFileSync(blocked, '');
    const previous = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = blocked; // its autostart folder cannot be made, as on a read-only disk
    try {
      const tray = electron.FakeTray.created.at(-1)!;
      const item = () => (tray.menu!.template as MenuItemConstructorOptions[]).find((entry) => entry.label === 'Start at login')!;
      expect(item().checked).toBe(false);
      expect(() => (item().click as (entry: { checked: boolean }) => void)({ checked: true })).not.toThrow();
      expect(electron.dialog.showErrorBox).toHaveBeenCalledWith('Cronbeat could not change "Start at login"', expect.stringContaining('ENOTDIR'));
      expect(item().checked).toBe(false);
    } finally {
      process.env.XDG_CONFIG_HOME = previous;
    }
  });

  // Last: it quits the app.
  it('shows the popups a burst was holding when it quits, instead of dropping them', async () => {
    const { token } = askSession(`${origin}/#/`) as { token: string };
    const names = ['sync a', 'sync b', 'sync c', 'sync d', 'sync e'];
    const monitors = await Promise.all(
      names.map(async (name) => {
        const created = await fetch(`${origin}/api/monitors`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name, timezone: 'UTC', schedule: '0 2 * * *', duration: 30 }),
        });
        return (await created.json()) as { token: string };
      }),
    );
    // Past three popups a minute the rest wait a few seconds to be summed up as one: quit meanwhile.
    await Promise.all(monitors.map(async (monitor) => expect((await fetch(`${origin}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200)));
    await quit();
    const shown = electron.FakeNotification.created.filter((n) => n.shown).map((n) => `${n.options.title} ${n.options.body}`);
    for (const name of names) expect(shown.some((text) => text.includes(name))).toBe(true);
  });
});
