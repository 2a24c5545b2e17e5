import { app } from 'electron';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The argument a login launch gets, so the app starts in the tray without opening its window. */
export const HIDDEN_ARG = '--hidden';

/** Where the XDG autostart entry lives: $XDG_CONFIG_HOME/autostart, else ~/.config/autostart. */
export function xdgAutostartFile(env: NodeJS.ProcessEnv, home: string): string {
  const config = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(config, 'autostart', 'cronbeat.desktop');
}

/** Quotes one Exec argument as the Desktop Entry spec wants (double quotes, \ " ` $ escaped). */
export function quoteExecArg(arg: string): string {
  if (/^[A-Za-z0-9_./:=@+-]+$/.test(arg)) return arg;
  return `"${arg.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
}

/** The autostart entry that starts `command` (program and arguments) hidden in the tray at login. */
export function xdgAutostartEntry(command: string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Cronbeat',
    'Comment=Tells you when a scheduled job, backup or certificate goes wrong',
    `Exec=${[...command, HIDDEN_ARG].map(quoteExecArg).join(' ').replace(/%/g, '%%')}`,
    'Icon=cronbeat',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * How this copy of the app is started again: the AppImage file when run from one (its mount
 * point changes each run), the installed binary, or in development electron plus the app folder;
 * through `env` with the data folder CRONBEAT_DATA_DIR chose, else a login start would run an
 * agent on the default folder, without this one's monitors, on the port the jobs ping.
 */
export function relaunchCommand(env: NodeJS.ProcessEnv, execPath: string, packaged: boolean, appPath: string): string[] {
  const app = env.APPIMAGE ? [env.APPIMAGE] : packaged ? [execPath] : [execPath, appPath];
  return env.CRONBEAT_DATA_DIR ? ['env', `CRONBEAT_DATA_DIR=${resolve(env.CRONBEAT_DATA_DIR)}`, ...app] : app;
}

/**
 * Whether this launch came from the login item or autostart entry: the --hidden argument (Linux,
 * Windows), or macOS's own flag since login items there take no arguments.
 */
export function launchedAtLogin(argv: string[], platform: string, macOpenedAtLogin: () => boolean): boolean {
  return argv.includes(HIDDEN_ARG) || (platform === 'darwin' && macOpenedAtLogin());
}

/** "Start at login": login items on macOS and Windows, an XDG autostart entry on Linux. */
export const startAtLogin = {
  isEnabled(): boolean {
    if (process.platform === 'linux') return existsSync(xdgAutostartFile(process.env, homedir()));
    // Windows matches the registry entry's arguments too: ask with the ones set() gives it.
    return app.getLoginItemSettings({ args: [HIDDEN_ARG] }).openAtLogin;
  },
  set(enabled: boolean): void {
    if (process.platform !== 'linux') {
      app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_ARG] });
      return;
    }
    const file = xdgAutostartFile(process.env, homedir());
    if (!enabled) {
      rmSync(file, { force: true });
      return;
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, currentEntry());
  },
  /**
   * At each start of an installed copy: an enabled Linux entry is pointed at the copy now running.
   * An AppImage update is a new file with a new name, and the entry would start the old one (or
   * nothing, once it is deleted). Login items elsewhere name the installed binary, which stays put.
   */
  refresh(): void {
    if (process.platform !== 'linux' || !app.isPackaged) return;
    const file = xdgAutostartFile(process.env, homedir());
    if (!existsSync(file)) return;
    const entry = currentEntry();
    if (readFileSync(file, 'utf8') !== entry) writeFileSync(file, entry);
  },
};

function currentEntry(): string {
  return xdgAutostartEntry(relaunchCommand(process.env, process.execPath, app.isPackaged, app.getAppPath()));
}
