/*
 * Email addresses as people write them in a channel's From and To, one rule for the API and the
 * dashboard: what nodemailer sends. A bare address (ops@example.com, me@localhost: a local
 * mail setup's usual address has no dot), or one with a display name (Ops <ops@example.com>,
 * "Ops, night shift" <ops@example.com>); several separated by commas.
 */

export interface MailAddress {
  /** "Ops", or "" without a display name. */
  name: string;
  address: string;
}

const LOCAL = String.raw`[^\s@<>()\[\],;:"\\]+`;
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;
const ADDRESS = new RegExp(String.raw`^${LOCAL}@${LABEL}(?:\.${LABEL})*$`, 'u');
const NAMED = /^(?:"((?:[^"\\]|\\.)*)"|([^"<>@,;:]*?))\s*<([^<>]*)>$/u;

/** The pieces of `text` between commas that are not inside double quotes. */
function splitOutsideQuotes(text: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && quoted) {
      current += char + (text[i + 1] ?? '');
      i++;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === ',' && !quoted) {
      pieces.push(current);
      current = '';
    } else current += char;
  }
  pieces.push(current);
  return pieces.map((piece) => piece.trim());
}

/** One address as written, or null when it is not one nodemailer can send to. */
export function parseEmailAddress(text: string): MailAddress | null {
  const written = text.trim();
  if (ADDRESS.test(written)) return { name: '', address: written };
  const named = NAMED.exec(written);
  if (!named) return null;
  const address = named[3]!.trim();
  if (!ADDRESS.test(address)) return null;
  const name = (named[1] !== undefined ? named[1].replace(/\\(.)/g, '$1') : named[2]!).trim();
  return { name, address };
}

/** The addresses of `text`, in order; null when it is empty or any of them is not an address. */
export function parseEmailAddresses(text: string): MailAddress[] | null {
  if (!text.trim()) return null;
  const addresses = splitOutsideQuotes(text).map(parseEmailAddress);
  return addresses.every((address) => address !== null) ? (addresses as MailAddress[]) : null;
}
