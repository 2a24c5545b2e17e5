/*
 * Whether popups can be shown here. On Linux and the other Unix systems a popup needs a graphical
 * session, which is there when DISPLAY (X11) or WAYLAND_DISPLAY is set; a server, a container or a
 * system service has neither. macOS and Windows always have one.
 */

/** Whether a graphical session is there to show windows and popups in. */
export function hasDesktop(platform: string, env: Record<string, string | undefined>): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The one line a headless agent says at start, instead of trying popups nobody can see. */
export const NO_DESKTOP_LINE = 'No desktop here (DISPLAY and WAYLAND_DISPLAY are unset): popups are off; alerts go to your channels and the dashboard.';
