import { Notification } from 'electron';
import type { Notifier, Popup } from '../agent/engine/popups/notifier';
import { describeError } from '../agent/domain/text/errorText';
import { nativePopupText } from '../agent/domain/text/popupText';

export interface ElectronNotifierOptions {
  /** Whether popups are muted right now (the agent still records every notification). */
  isMuted: () => boolean;
  /** Shows the dashboard at a route: what clicking a popup does. */
  openRoute: (route: string) => void;
  icon?: string;
  log: (line: string) => void;
  /** Where the popup is shown (process.platform): Linux reads its body as markup. */
  platform?: string;
}

/**
 * The agent's Notifier as native OS notifications. A click opens the popup's route (the overview
 * when it has none). Never throws: a desktop without a notification service is logged once.
 */
export function electronNotifier(options: ElectronNotifierOptions): Notifier {
  // Electron drops a notification's click handler once the object is garbage collected.
  const live = new Set<Notification>();
  let unsupportedLogged = false;
  return {
    show(popup: Popup): void {
      try {
        if (options.isMuted()) return;
        if (!Notification.isSupported()) {
          if (!unsupportedLogged) options.log('This desktop has no notification service: popups are off.');
          unsupportedLogged = true;
          return;
        }
        const notification = new Notification({ ...nativePopupText(popup, options.platform ?? process.platform), icon: options.icon });
        live.add(notification);
        notification.on('click', () => {
          live.delete(notification);
          options.openRoute(popup.route ?? '/');
        });
        notification.on('close', () => live.delete(notification));
        notification.on('failed', (_event, error) => {
          live.delete(notification);
          options.log(`A popup could not be shown: ${error}`);
        });
        notification.show();
      } catch (error) {
        options.log(`A popup could not be shown: ${describeError(error)}`);
      }
    },
  };
}
