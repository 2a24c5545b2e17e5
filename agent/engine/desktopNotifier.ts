import nodeNotifier from 'node-notifier';
import type { Notifier, Popup } from './notifier';

/** Hands one popup to the OS; calls back with an error when the OS could not show it. */
export type SendPopup = (popup: Popup, done: (error: Error | null) => void) => void;

const sendWithNodeNotifier: SendPopup = (popup, done) => {
  nodeNotifier.notify({ title: popup.title, message: popup.body, wait: false }, (error) => done(error ?? null));
};

/**
 * Popups through the OS notification service (node-notifier: notify-send, Notification
 * Center, Windows toasts). Never throws and never blocks the caller: the popup is handed over
 * on a later tick. A machine with no notification service (a headless server) gets one log
 * line about it, then popups are dropped quietly; the monitors keep working either way.
 */
export function desktopNotifier(log: (line: string) => void, send: SendPopup = sendWithNodeNotifier): Notifier {
  let reported = false;
  const report = (error: unknown) => {
    if (reported) return;
    reported = true;
    const reason = error instanceof Error ? error.message : String(error);
    log(`Desktop popups are unavailable on this machine (${reason.trim()}); failures still reach /api/notifications.`);
  };
  return {
    show(popup) {
      setImmediate(() => {
        try {
          send(popup, (error) => {
            if (error) report(error);
          });
        } catch (error) {
          report(error);
        }
      });
    },
  };
}
