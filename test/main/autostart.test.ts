import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./electronMock'));
const electron = await import('./electronMock');
const { HIDDEN_ARG, launchedAtLogin, quoteExecArg, relaunchCommand, startAtLogin, xdgAutostartEntry, xdgAutostartFile } = await import('../../main/autostart');

const realPlatform = process.platform;
const setPlatform = (platform: string) => Object.defineProperty(process, 'platform', { value: platform });
const realConfigHome = process.env.XDG_CONFIG_HOME;
afterEach(() => {
  setPlatform(realPlatform);
  process.env.XDG_CONFIG_HOME = realConfigHome;
});

describe('the XDG autostart entry', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart', () => {
    expect(xdgAutostartFile({ XDG_CONFIG_HOME: '/cfg' }, '/home/ann')).toBe('/cfg/autostart/cronbeat.desktop');
    expect(xdgAutostartFile({}, '/home/ann')).toBe('/home/ann/.config/autostart/cronbeat.desktop');
    expect(xdgAutostartFile({ XDG_CONFIG_HOME: 'relative' }, '/home/ann')).toBe('/home/ann/.config/autostart/cronbeat.desktop');
  });

  it('starts the app hidden in the tray, with arguments quoted as the spec wants', () => {
    const entry = xdgAutostartEntry(['/opt/Cron Beat/cronbeat', '/app']);
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Cronbeat\n');
    expect(entry).toContain(`Exec="/opt/Cron Beat/cronbeat" /app ${HIDDEN_ARG}\n`);
    expect(entry).toContain('X-GNOME-Autostart-enabled=true');
    expect(quoteExecArg('/a/$b"c`d\\e')).toBe('"/a/\\$b\\"c\\`d\\\\e"');
    expect(xdgAutostartEntry(['/opt/100%/app'])).toContain('Exec="/opt/100%%/app" --hidden');
  });

  it('relaunches the AppImage file, the installed binary, or electron with the app folder', () => {
    expect(relaunchCommand({ APPIMAGE: '/home/ann/Cronbeat.AppImage' }, '/tmp/.mount/cronbeat', true, '/x')).toEqual(['/home/ann/Cronbeat.AppImage']);
    expect(relaunchCommand({}, '/opt/Cronbeat/cronbeat', true, '/x')).toEqual(['/opt/Cronbeat/cronbeat']);
    expect(relaunchCommand({}, '/repo/node_modules/electron/dist/electron', false, '/repo')).toEqual([
      '/repo/node_modules/electron/dist/electron',
      '/repo',
    ]);
  });

  it('starts at login on the data folder this copy runs on, when CRONBEAT_DATA_DIR chose it, not on the default one', () => {
    const command = relaunchCommand({ CRONBEAT_DATA_DIR: '/data/cron beat' }, '/opt/Cronbeat/cronbeat', true, '/x');
    expect(command).toEqual(['env', 'CRONBEAT_DATA_DIR=/data/cron beat', '/opt/Cronbeat/cronbeat']);
    expect(xdgAutostartEntry(command)).toContain('\nExec=env "CRONBEAT_DATA_DIR=/data/cron beat" /opt/Cronbeat/cronbeat --hidden\n');
    expect(relaunchCommand({ CRONBEAT_DATA_DIR: '' }, '/opt/Cronbeat/cronbeat', true, '/x')).toEqual(['/opt/Cronbeat/cronbeat']);
  });
});

describe('a launch at login', () => {
  it('stays in the tray: --hidden on Linux and Windows, the login item flag on macOS', () => {
    expect(launchedAtLogin(['/opt/cronbeat', HIDDEN_ARG], 'linux', () => false)).toBe(true);
    expect(launchedAtLogin(['/opt/cronbeat'], 'linux', () => true)).toBe(false);
    expect(launchedAtLogin(['/Applications/Cronbeat.app'], 'darwin', () => true)).toBe(true);
    expect(launchedAtLogin(['/Applications/Cronbeat.app'], 'darwin', () => false)).toBe(false);
  });
});

describe('start at login', () => {
  it('writes and removes the autostart file on Linux', () => {
    setPlatform('linux');
    const dir = mkdtempSync(join(tmpdir(), 'cronbeat-autostart-'));
    process.env.XDG_CONFIG_HOME = dir;
    try {
      expect(startAtLogin.isEnabled()).toBe(false);
      startAtLogin.set(true);
      const file = join(dir, 'autostart', 'cronbeat.desktop');
      expect(readFileSync(file, 'utf8')).toContain(`Exec=${quoteExecArg(process.execPath)} /opt/cronbeat-app --hidden`);
      expect(startAtLogin.isEnabled()).toBe(true);
      startAtLogin.set(false);
      expect(existsSync(file)).toBe(false);
      expect(startAtLogin.isEnabled()).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('points an enabled autostart entry at the AppImage now running, so it survives an update to a new file name', () => {
    setPlatform('linux');
    const dir = mkdtempSync(join(tmpdir(), 'cronbeat-autostart-'));
    process.env.XDG_CONFIG_HOME = dir;
    const realAppImage = process.env.APPIMAGE;
    electron.app.isPackaged = true;
    try {
      const file = join(dir, 'autostart', 'cronbeat.desktop');
      startAtLogin.refresh();
      expect(existsSync(file)).toBe(false); // not enabled: nothing written

      process.env.APPIMAGE = '/home/ann/Cronbeat-1.0.0.AppImage';
      startAtLogin.set(true);
      process.env.APPIMAGE = '/home/ann/Cronbeat-1.1.0.AppImage';
      startAtLogin.refresh();
      expect(readFileSync(file, 'utf8')).toContain('Exec=/home/ann/Cronbeat-1.1.0.AppImage --hidden\n');
    } finally {
      electron.app.isPackaged = false;
      if (realAppImage === undefined) delete process.env.APPIMAGE;
      else process.env.APPIMAGE = realAppImage;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Windows answers openAtLogin only for the args the item was set with: asked without
  // --hidden, the ticked box read as unticked and could never be unticked.
  it('uses the OS login items on macOS and Windows, and reads back what it set', () => {
    for (const platform of ['darwin', 'win32']) {
      setPlatform(platform);
      startAtLogin.set(true);
      expect(electron.app.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: true, args: [HIDDEN_ARG] });
      expect(startAtLogin.isEnabled()).toBe(true);
      startAtLogin.set(false);
      expect(startAtLogin.isEnabled()).toBe(false);
    }
  });
});
