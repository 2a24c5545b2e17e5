import { execFile } from 'node:child_process';

/** Said once to GNOME users whose shell has no tray: the window and popups still work without it. */
export const TRAY_HINT =
  'GNOME shows no tray icons by default. To see Cronbeat\'s status in the top bar, install the ' +
  '"AppIndicator and KStatusNotifierItem Support" extension (package gnome-shell-extension-appindicator ' +
  'on Debian, Ubuntu and Fedora), enable it in Extensions (on Wayland, log out and back in), then restart ' +
  'Cronbeat. Until then, closing the window minimizes it and popups still appear.';

/**
 * Whether the tray icon would be invisible: only on GNOME, where tray icons need a
 * StatusNotifierWatcher (the AppIndicator extension) on the session bus. Null watcher = unknown: assume fine.
 */
export function trayIsMissing(platform: string, currentDesktop: string | undefined, watcherPresent: boolean | null): boolean {
  if (platform !== 'linux' || watcherPresent !== false) return false;
  return (currentDesktop ?? '').split(':').some((name) => name.toUpperCase() === 'GNOME');
}

/** Asks the session bus whether a StatusNotifierWatcher is running; null when it cannot tell. */
export function statusNotifierWatcherPresent(): Promise<boolean | null> {
  return new Promise((resolve) => {
    execFile(
      'gdbus',
      ['call', '--session', '--dest', 'org.freedesktop.DBus', '--object-path', '/org/freedesktop/DBus',
        '--method', 'org.freedesktop.DBus.NameHasOwner', 'org.kde.StatusNotifierWatcher'],
      { timeout: 2000 },
      (error, stdout) => resolve(error ? null : /true/.test(stdout)),
    );
  });
}
