import { hasDesktop } from '../../agent/domain/alerts/desktop';

/** `npm start`'s choice between the desktop app and the headless agent, as pure functions. */

export type LaunchPlan = { mode: 'electron'; binary: string } | { mode: 'headless'; reason: string };

export interface LaunchSituation {
  platform: string;
  env: Record<string, string | undefined>;
  /** The Electron executable when it is present (after a download attempt), else null. */
  electronBinary: string | null;
}

/** Whether a graphical session is there to show windows in (the agent's own rule for popups). */
export const hasDisplay = hasDesktop;

/** Electron when it can run here; otherwise the headless agent, with the reason in a few words. */
export function chooseLaunch(situation: LaunchSituation): LaunchPlan {
  if (situation.env.CRONBEAT_HEADLESS === '1') return { mode: 'headless', reason: 'CRONBEAT_HEADLESS=1 is set' };
  if (!hasDisplay(situation.platform, situation.env)) {
    return { mode: 'headless', reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  if (!situation.electronBinary) {
    return { mode: 'headless', reason: "Electron's binary is not installed and could not be downloaded" };
  }
  return { mode: 'electron', binary: situation.electronBinary };
}

/** The one line `npm start` prints when it falls back. */
export function fallbackMessage(reason: string): string {
  return `Cronbeat: the desktop app cannot start because ${reason}; running the headless agent instead (open the sign-in link below in a browser).`;
}

/** Whether an Electron exit means it never got going (so the headless agent should take over). */
export function electronFailedAtStart(code: number | null, signal: string | null, runMs: number): boolean {
  return signal === null && code !== 0 && code !== null && runMs < 10_000;
}

/** A build output is stale when it is missing or older than the newest of its sources. */
export function isStale(outputMtimeMs: number | null, newestSourceMtimeMs: number): boolean {
  return outputMtimeMs === null || outputMtimeMs < newestSourceMtimeMs;
}
