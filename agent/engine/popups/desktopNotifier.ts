import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import nodeNotifier from 'node-notifier';
import type { Notifier, Popup } from './notifier';
import { burstingNotifier } from './popupBursts';
import type { Log } from '../../log/logger';
import { nativePopupText } from '../../domain/text/popupText';

/** Hands one popup to the OS; calls back with an error when the OS could not show it. */
export type SendPopup = (popup: Popup, done: (error: Error | null) => void) => void;

/** The name popups come from (notify-send's --app-name; without it they read "notify-send"). */
export const POPUP_APP_NAME = 'Cronbeat';

function moduleDir(): string {
  // __dirname in the CommonJS bundle (dist/); import.meta.url when run from source (vitest, tsx).
  return typeof __dirname === 'string' ? __dirname : dirname(new URL(import.meta.url).pathname);
}

/** Cronbeat's icon for popups: the app icon next to the bundle or in the repository; undefined when neither is there. */
export function popupIconPath(): string | undefined {
  const here = moduleDir();
  const candidates = [join(here, '..', 'main', 'assets', 'icons', '256x256.png'), join(here, '..', '..', 'main', 'assets', 'icons', '256x256.png')];
  return candidates.find((file) => existsSync(file));
}

/** node-notifier's options for a popup: its text as `platform` shows it safely, Cronbeat's name and icon, and nothing to wait for. */
export function popupOptions(popup: Popup, icon = popupIconPath(), platform: string = process.platform): Record<string, unknown> {
  const { title, body } = nativePopupText(popup, platform);
  return { title, message: body, wait: false, 'app-name': POPUP_APP_NAME, ...(icon ? { icon } : {}) };
}

const sendWithNodeNotifier: SendPopup = (popup, done) => {
  nodeNotifier.notify(popupOptions(popup) as Parameters<typeof nodeNotifier.notify>[0], (error) => done(error ?? null));
};

/**
 * Popups through the OS notification service (node-notifier: notify-send, Notification
 * Center, Windows toasts). Never throws and never blocks the caller: the popup is handed over
 * on a later tick. A machine with no notification service (a headless server) gets one log
 * line about it, then popups are dropped quietly; the monitors keep working either way. Past a
 * few popups a minute, the rest fold into one summary (popupBursts.ts); stop() shows what a burst
 * still holds, which the agent counts as shown already.
 */
export function desktopNotifier(log: Log, send: SendPopup = sendWithNodeNotifier): Notifier & { stop(): void } {
  return burstingNotifier(osNotifier(log, send), Date.now);
}

/**
 * Why a popup could not be shown, in words that never quote it: a failed notify-send's error
 * holds its whole command line, the popup's text (a job's output) included, and its error
 * output may repeat it. What is said is how the notifier ended, or a message of the notifier's
 * own that holds nothing of the popup.
 */
export function popupFailure(error: unknown, popup: Popup): string {
  if (typeof error === 'string') return 'the notifier wrote an error';
  if (!(error instanceof Error)) return 'the notifier failed';
  const { code, signal } = error as Error & { code?: unknown; signal?: unknown };
  if (typeof signal === 'string' && signal) return `the notifier was stopped by ${signal}`;
  if (typeof code === 'number') return `the notifier exited with status ${code}`;
  if (typeof code === 'string' && /^[A-Z0-9_]+$/.test(code)) return `the notifier could not start (${code})`;
  const message = error.message.split('\n')[0].trim().slice(0, 200);
  const quotes = [popup.title, popup.body].some((text) => text.trim() !== '' && (message.includes(text.trim()) || text.includes(message)));
  return message === '' || quotes || 'cmd' in error ? 'the notifier failed' : message;
}

/** Hands each popup to the OS as it comes (desktopNotifier folds bursts in front of it). */
function osNotifier(log: Log, send: SendPopup): Notifier {
  let reported = false;
  const report = (error: unknown, popup: Popup) => {
    if (reported) return;
    reported = true;
    log(`Desktop popups are unavailable on this machine (${popupFailure(error, popup)}); failures still reach /api/notifications.`, { level: 'warn' });
  };
  return {
    show(popup) {
      setImmediate(() => {
        try {
          send(popup, (error) => {
            if (error) report(error, popup);
          });
        } catch (error) {
          report(error, popup);
        }
      });
    },
  };
}
