import type { Notifier, Popup } from '../../agent/engine/popups/notifier';

/** A notifier that keeps every popup it is shown, for tests to read. */
export class RecordingNotifier implements Notifier {
  readonly popups: Popup[] = [];

  show(popup: Popup): void {
    this.popups.push(popup);
  }

  /** The popups shown since the last call, and forgets them. */
  take(): Popup[] {
    return this.popups.splice(0);
  }
}
