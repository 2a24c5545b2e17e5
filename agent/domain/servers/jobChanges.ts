import { cutText } from '../text/chatText';
import { terminalText } from '../text/controlCharacters';

/** What a server's watcher saw happen to a cron job. */
export const CRON_CHANGES = ['added', 'removed', 'altered'] as const;
export type CronChange = (typeof CRON_CHANGES)[number];

export interface AlertedServer {
  id: number;
  name: string;
  identifier: string;
}

export interface CronChangeReport {
  username: string;
  command: string;
  change: CronChange;
  previousCommand: string | null;
}

/** The most characters (UTF-16 units, as the API counts them) a server alert's command or previous command may have. */
export const ALERT_COMMAND_CHARS = 10_000;
/** The most characters a server alert's username may have. */
export const ALERT_USERNAME_CHARS = 255;

/**
 * A crontab's user as an alert's username can hold it: a system crontab's user column is any word,
 * which the API would refuse for a control character or its length, and a refused alert stops the
 * watcher; so what would act on a reader is written out (`\u001b`) and a long one cut.
 */
export function fitAlertUsername(user: string): string {
  return cutText(terminalText(user, { oneLine: true }), ALERT_USERNAME_CHARS);
}

const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * A cron line as an alert can hold it: whole when it fits, else its start and its end with how much
 * was left out between them. Any user may write a line too long for an alert into their own
 * crontab; refused, it would stop the watcher, and a tail alone or a start alone could hide what
 * was planted at the other end (`echo <padding>; curl … | sh`). Never splits a surrogate pair.
 */
export function fitAlertCommand(text: string, max = ALERT_COMMAND_CHARS): string {
  if (text.length <= max) return text;
  const gap = (n: number) => ` … (${thousands(n)} characters left out) … `;
  const room = Math.max(0, max - gap(text.length).length);
  let headEnd = Math.ceil(room / 2);
  if (headEnd > 0 && isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  let tailStart = text.length - Math.floor(room / 2);
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return `${text.slice(0, headEnd)}${gap(tailStart - headEnd)}${text.slice(tailStart)}`;
}
