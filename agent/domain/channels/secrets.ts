import type { ChannelSecretRules } from './settings';
import { decodeUrlPart } from '../net/urlCredentials';

/*
 * A channel's secrets beyond showing them masked (docs/channels.md,
 * "Secrets"): every form in which one could show up in a text, so answers, errors and logs can be
 * scrubbed of it; and which settings say where a channel sends, so that changing them asks for its
 * secrets again. Pure.
 */

/** Redacted secrets read as this. */
export const REDACTED = '[redacted]';

/** Path segments at least this long of a secret URL are secret on their own (Slack's and Discord's tokens). */
const SECRET_SEGMENT_MIN = 16;

/** The password of a URL's user:pass@, decoded; null when it has none. */
export function urlPassword(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const { password } = new URL(value);
    return password ? decodeUrlPart(password) : null;
  } catch {
    return null;
  }
}

/** `text` as base64 of its UTF-8 bytes (what a Basic header carries); no Buffer, so the renderer may import this file. */
function base64(text: string): string {
  return btoa(Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join(''));
}

/**
 * The secret values of a channel's settings: the secret fields, and a webhook URL's password,
 * also as the Basic header carries it (base64 of `user:password`, which echoing receivers show).
 */
export function channelSecretValues(kind: ChannelSecretRules, settings: Record<string, unknown>): string[] {
  const values = kind.secrets.map((field) => settings[field]).filter((v): v is string => typeof v === 'string');
  const url = kind.urlWithCredentials ? settings[kind.urlWithCredentials] : undefined;
  const password = urlPassword(url);
  if (password) values.push(password, base64(`${urlUser(url)}:${password}`));
  return values.filter((v) => v.length >= 4);
}

/** The user name of a URL's user:pass@, decoded (empty when it has none or is not a URL). */
function urlUser(value: unknown): string {
  try {
    return decodeUrlPart(new URL(String(value)).username);
  } catch {
    return '';
  }
}

/**
 * Each form in which `secret` may be echoed: itself and URL-encoded; for a URL, also without its
 * scheme, its path and query, and each long path segment (a receiver that echoes only the path of
 * a Slack or Discord webhook must not show its token).
 */
function formsOf(secret: string): string[] {
  const forms = new Set([secret]);
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // A lone surrogate has no URL encoding: only its other forms can be echoed.
  }
  try {
    const url = new URL(secret);
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      forms.add(secret.replace(/^https?:\/\//, ''));
      const path = `${url.pathname}${url.search}`;
      if (path.length > 1) forms.add(path);
      for (const segment of url.pathname.split('/')) {
        if (segment.length >= SECRET_SEGMENT_MIN) forms.add(segment);
      }
    }
  } catch {
    // not a URL
  }
  return [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

const hexDigit = (digit: string) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit);

/**
 * A pattern matching `form` however an echo encoded it: each character as itself or
 * percent-encoded (in either case of hex; encoders differ in what they encode), a space also as
 * `+` (forms), a slash also as `\/` (JSON as PHP writes it).
 */
function echoPattern(form: string): string {
  return Array.from(form, (char) => {
    const encoded = Array.from(new TextEncoder().encode(char), (byte) => `%${[...byte.toString(16).padStart(2, '0')].map(hexDigit).join('')}`).join('');
    const ways = [char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), encoded];
    if (char === ' ') ways.push('\\+');
    if (char === '/') ways.push('\\\\/');
    return `(?:${ways.join('|')})`;
  }).join('');
}

/** `text` with every form of each secret, however encoded, replaced by REDACTED. */
export function redactValues(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of formsOf(secret)) out = out.replace(new RegExp(echoPattern(form), 'g'), REDACTED);
  }
  return out;
}

/** The destination settings in which `merged` differs from `stored` (ChannelSecretRules.destination); empty when none. */
export function changedDestination(kind: ChannelSecretRules, stored: Record<string, unknown>, merged: Record<string, unknown>): string[] {
  return kind.destination.filter((field) => (stored[field] ?? null) !== (merged[field] ?? null));
}

/**
 * The secret fields a PATCH must give again: each stored secret the PATCH does not replace
 * (left out or sent as its mask), when the PATCH changes where the channel sends. `merged` is
 * the settings as they would be stored; empty when nothing is missing.
 */
export function secretsToGiveAgain(
  kind: ChannelSecretRules,
  stored: Record<string, unknown>,
  merged: Record<string, unknown>,
  replaced: (field: string) => boolean,
): string[] {
  if (changedDestination(kind, stored, merged).length === 0) return [];
  return kind.secrets.filter((field) => typeof stored[field] === 'string' && stored[field] !== '' && !replaced(field));
}
