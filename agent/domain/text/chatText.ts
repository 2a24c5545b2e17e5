/*
 * Text for chat services, which read what we send as markup and refuse what is too long
 * (docs/channels.md, "What each service is sent"): each service's escaping, the lengths it counts,
 * and cutting that never splits a surrogate pair or an escape sequence (a cut is made in the raw
 * text, then escaped). Pure.
 */

/** How much of a monitor's or server's name a title shows, before the service's own limit. */
export const TITLE_CHARS = 300;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The start of `text`, at most `max` UTF-16 units, ending in "…" when cut; never half a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = max - 1;
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return `${text.slice(0, end)}…`;
}

/** The end of `text`, at most `max` UTF-16 units, starting with "…" when cut; never half a surrogate pair. */
export function cutTextStart(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let start = text.length - (max - 1);
  if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
  return `…${text.slice(start)}`;
}

/**
 * The largest `n` in 0..`max` for which `fits(n)` holds, given that it holds for every smaller n
 * when it holds for n (a longer piece never measures shorter); 0 when none but 0 fits. Probes grow
 * from 1 by doubling before halving, so finding 40 lines of 5,000 renders a few short lists, not
 * the whole one a dozen times.
 */
export function largestFitting(max: number, fits: (n: number) => boolean): number {
  if (max <= 0 || fits(max)) return Math.max(0, max);
  let low = 0;
  let high = max - 1;
  for (let probe = 1; probe < max; probe *= 2) {
    if (!fits(probe)) {
      high = probe - 1;
      break;
    }
    low = probe;
  }
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** `raw` rendered by `render`, cut in the raw text (never in an escape) until the rendering measures at most `max`. */
export function fitRendered(raw: string, render: (text: string) => string, max: number, measure: (text: string) => number = utf16Length): string {
  const n = largestFitting(raw.length, (chars) => measure(render(cutText(raw, chars))) <= max);
  return render(cutText(raw, n));
}

/** `text` on one line: line breaks, tabs and other control characters become spaces (a title, a subject). */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
}

export const utf16Length = (text: string) => text.length;

const encoder = new TextEncoder();
export const utf8Bytes = (text: string) => encoder.encode(text).length;

/** What Telegram counts of an HTML message: UTF-16 units of its text once tags are dropped and entities read. */
export function telegramLength(html: string): number {
  return html.replace(/<[^<>]*>/g, '').replace(/&(?:lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/gi, '_').length;
}

/** HTML text and attribute values (email, Telegram's parse_mode HTML): & < > " as entities. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Slack's mrkdwn: & < > as entities, the only escapes Slack reads. Without a raw "<" no mention
 * (<!channel>, <@U…>), channel link or <url|label> can be formed.
 */
export const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Discord's markdown: a backslash before each character that formats, quotes, heads, links or
 * mentions (* _ ~ ` | > # [ ] ( ) < @ \ and a list's - + or "1." at a line's start), and before the
 * ":" of "://" so a bare address is not made a link. Mentions are off besides (allowed_mentions).
 */
export function escapeDiscord(text: string): string {
  return text
    .replace(/[\\*_~`|>#[\]()<@]/g, '\\$&')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/^([ \t]*)([-+])/gm, '$1\\$2')
    .replace(/^([ \t]*\d+)\./gm, '$1\\.');
}

/** A code block's text made unable to end it: chat code blocks end at three backticks. */
export const unfence = (text: string) => text.replace(/`{3,}/g, (ticks) => "'".repeat(ticks.length));
