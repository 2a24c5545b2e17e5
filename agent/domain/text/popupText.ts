import { terminalText } from './controlCharacters';

/**
 * A popup's text as the OS shows it, on `platform` (process.platform). Linux notification servers
 * (GNOME, KDE, dunst…) read the body as markup, and both Electron and notify-send hand it over
 * raw: a job's output could bold, hide itself, or offer a link of its own choosing; there the
 * body's markup characters are escaped. Control characters are written out everywhere, as the CLI does.
 */
export function nativePopupText(popup: { title: string; body: string }, platform: string): { title: string; body: string } {
  const body = terminalText(popup.body);
  return {
    title: terminalText(popup.title, { oneLine: true }),
    body: platform === 'linux' ? body.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!) : body,
  };
}
