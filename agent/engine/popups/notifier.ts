import type { Popup } from '../../domain/alerts/popup';

export type { Popup };

/**
 * Where popups go. The headless agent uses node-notifier; the desktop app passes an Electron
 * implementation; tests pass a recording one. show() must never throw and never block.
 */
export interface Notifier {
  show(popup: Popup): void;
}

export const silentNotifier: Notifier = { show() {} };
