import { join } from 'node:path';
import type { TrayState } from './trayModel';

/**
 * The tray image for a state. macOS gets monochrome template images (the menu bar tints them;
 * the state shows in the shape), Windows 16 px with an @2x twin, Linux panels a 32 px image they scale.
 */
export function trayIconPath(assetsDir: string, state: TrayState, platform: string): string {
  const name = platform === 'darwin' ? `tray-${state}Template.png` : platform === 'win32' ? `tray-${state}.png` : `tray-${state}-linux.png`;
  return join(assetsDir, 'tray', name);
}

/** The app icon used for the window and popups. */
export function appIconPath(assetsDir: string): string {
  return join(assetsDir, 'icons', '512x512.png');
}
