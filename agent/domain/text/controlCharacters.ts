/*
 * Characters that act on whoever reads a text instead of being read: C0 controls (NUL, BEL,
 * ESC: `ESC]52;…` writes a terminal's clipboard, `ESC[2J` clears its screen), DEL, C1 controls
 * (U+0080–U+009F: U+009B is a one-byte CSI on some terminals), lone UTF-16 surrogates (no
 * character at all), the bidirectional overrides and isolates that show a text in another
 * order than it is stored (U+202A–U+202E, U+2066–U+2069), and the Unicode line and paragraph
 * separators (U+2028, U+2029), which JSON.stringify leaves raw. Names refuse them; what the CLI
 * prints has them written out.
 */

// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
// eslint-disable-next-line no-control-regex -- as above, less the two a text of several lines keeps
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMES: Record<string, string> = { '\n': 'a line break', '\r': 'a carriage return', '\t': 'a tab', '\u001b': 'ESC', '\u0007': 'BEL', '\u0000': 'NUL' };

/** How a code unit is written out: `\u001b`, which is also what it means inside a JSON string. */
export function escapedCodeUnit(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * The first control character in `text`, in words for an error message ("ESC (U+001B)"), or
 * undefined when there is none.
 */
export function controlCharacterIn(text: string): string | undefined {
  const found = CONTROL.exec(text)?.[0];
  if (found === undefined) return undefined;
  const code = `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return NAMES[found] ? `${NAMES[found]} (${code})` : /[\ud800-\udfff]/.test(found) ? `a lone surrogate (${code})` : code;
}

/**
 * What keeps `text` from being one word, as a key or a token is (a control character, such as the
 * carriage return of a file written on Windows, else "a space"), in words; undefined when it is one.
 */
export function notOneWordIn(text: string): string | undefined {
  return controlCharacterIn(text) ?? (/\s/.test(text) ? 'a space' : undefined);
}

/**
 * `text` as safe to write on a terminal: every control character written out as `\u001b`
 * (inside a JSON string that is the same character again, so a JSON line stays the same
 * JSON). Line breaks and tabs are kept unless `oneLine`, where they are written out too.
 */
export function terminalText(text: string, options: { oneLine?: boolean } = {}): string {
  return text.replace(options.oneLine ? CONTROLS : CONTROLS_BUT_LINES, escapedCodeUnit);
}

/**
 * Text for XML 1.0 (an SVG, a property list): the characters XML has no place for (C0 but tab
 * and line breaks, lone surrogates, U+FFFE and U+FFFF) and the other control characters above
 * written out as `\u001b`; then the five characters XML gives a meaning escaped, so no text can
 * become markup.
 */
export function xmlText(text: string): string {
  return terminalText(text, { oneLine: true })
    .replace(/[\ufffe\uffff]/g, escapedCodeUnit)
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
