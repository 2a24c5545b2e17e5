/** A desktop popup: what the user sees, and what it is about so a click can open it. */
export interface Popup {
  title: string;
  body: string;
  /** The dashboard route the popup leads to, e.g. "/monitors/12". */
  route?: string;
}

/**
 * Where popups go. The headless agent uses node-notifier; the desktop app passes an Electron
 * implementation; tests pass a recording one. show() must never throw and never block.
 */
export interface Notifier {
  show(popup: Popup): void;
}

export const silentNotifier: Notifier = { show() {} };
