import type { Store } from '../../db/store';
import type { MonitorResource, MonitorView } from '../../contract/monitors';
import type { DeliveryResource, NotificationResource } from '../../contract/notifications';
import type { ServerAlertResource } from '../../contract/servers';
import type { PulseResource } from '../../contract/pulses';
import { seesPulseTokens, type KeyScope } from '../../domain/access/keyScopes';

/*
 * A monitor's pulse token is a write credential: with it anyone can fail the monitor or turn a
 * failed one green. So a key that may not write (read-only) is never shown one: a monitor's
 * `token` and `pulse_url` and a notification's `data.monitor_token` are null (the fields stay, so
 * clients that read them do not break), and a live monitor's token written inside a text it may
 * read (a cron command a server reported, a receiver's answer, a job's output) shows as
 * HIDDEN_TOKEN, and an API key written there as HIDDEN_API_KEY. A full key gets every answer
 * exactly as the spec shapes it.
 */

/** What a monitor token inside a text shows as to a key that does not see pulse tokens. */
export const HIDDEN_TOKEN = '[monitor token]';

/** A UUID, with its dashes or as 32 hex digits alone (Python's uuid.hex, `tr -d -`), which give the token back as readily. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/gi;

/*
 * The part of a UUID a cut left at a text's start (`cronbeat run` sends the last 100 KB of the
 * output) or end (the agent keeps the first 100 KB of a body, then says what it cut). From 18
 * characters on, too few digits of it are missing to keep a token safe from guessing, and a
 * monitor token's guesses are never throttled: hidden whatever it was, as no lookup can tell.
 */
const CUT_AT_START = /^(?:[0-9a-f]{0,7}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}|[0-9a-f]{0,4}-[0-9a-f]{4}-[0-9a-f]{4}|[0-9a-f]{0,4}-[0-9a-f]{4}|[0-9a-f]{0,4})-[0-9a-f]{12}(?![0-9a-f-])/i;
const CUT_AT_END = /(?<![0-9a-f-])[0-9a-f]{8}-(?:[0-9a-f]{4}-(?:[0-9a-f]{4}-(?:[0-9a-f]{4}-[0-9a-f]{0,11}|[0-9a-f]{0,4})|[0-9a-f]{0,4})|[0-9a-f]{0,4})(?=\n\[… [^\n]*\]$|$)/i;
const MIN_CUT_PART = 18;

function withoutCutParts(text: string): string {
  const hide = (found: string) => (found.length >= MIN_CUT_PART && found.length < 36 ? HIDDEN_TOKEN : found);
  return text.replace(CUT_AT_START, hide).replace(CUT_AT_END, hide);
}

/** `value` with every string in it, however deep, as `show` shows it. */
function eachString<T>(value: T, show: (text: string) => string): T {
  if (typeof value === 'string') return show(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => eachString(item, show)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, eachString(item, show)])) as T;
  }
  return value;
}

/** A UUID as the agent writes tokens: lower case, with its dashes. */
const asToken = (found: string) => {
  const hex = found.toLowerCase().replace(/-/g, '');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/**
 * What an API key inside a text shows as to a key that does not see pulse tokens: a job that
 * printed its environment, or a crontab line a watcher reported, would hand it a ping or full key.
 */
export const HIDDEN_API_KEY = '[API key]';

/** An API key as made (db/apiTokens.ts): "cb_" and 256 bits in base64url. */
const API_KEY = /(?<![A-Za-z0-9])cb_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/** How the answers of a request made with a key of `scope` show pulse tokens. */
export interface TokenView {
  monitor(resource: MonitorResource): MonitorView;
  notification(resource: NotificationResource): NotificationResource;
  text(text: string): string;
  nullableText(text: string | null): string | null;
  serverAlert(alert: ServerAlertResource): ServerAlertResource;
  delivery(delivery: DeliveryResource): DeliveryResource;
  pulse(pulse: PulseResource): PulseResource;
  /** Any JSON value (a notification's alert: its run's output tail): every string in it as `text` shows it. */
  json<T>(value: T): T;
  /** A thing a person named (a server): its name and identifier as `text` shows them. */
  named<T extends { name: string; identifier?: string }>(resource: T): T;
}

const AS_IS: TokenView = {
  monitor: (resource) => resource,
  notification: (resource) => resource,
  text: (text) => text,
  nullableText: (text) => text,
  serverAlert: (alert) => alert,
  delivery: (delivery) => delivery,
  pulse: (pulse) => pulse,
  json: (value) => value,
  named: (resource) => resource,
};

export function tokenView(store: Store, scope: KeyScope): TokenView {
  if (seesPulseTokens(scope)) return AS_IS;
  // Tokens are UUIDs; only one that is some live monitor's token is hidden, so other UUIDs in a job's output stay.
  const text = (value: string) =>
    withoutCutParts(value.replace(UUID, (found) => (store.monitors.findByToken(asToken(found)) ? HIDDEN_TOKEN : found)).replace(API_KEY, HIDDEN_API_KEY));
  const nullableText = (value: string | null) => (value === null ? null : text(value));
  return {
    // A name is a person's words, and may quote a pulse URL (a monitor named after its curl line): shown as any text.
    monitor: (resource) => ({
      ...resource,
      name: text(resource.name),
      slug: resource.slug === null ? null : text(resource.slug),
      tags: resource.tags.map(text),
      token: null,
      pulse_url: null,
    }),
    notification: (resource) => {
      const data = { ...resource.data } as Record<string, unknown>;
      if ('monitor_token' in data) data.monitor_token = null;
      for (const [field, value] of Object.entries(data)) if (typeof value === 'string') data[field] = text(value);
      return { ...resource, data: data as unknown as NotificationResource['data'] };
    },
    text,
    nullableText,
    serverAlert: (alert) => ({ ...alert, command: text(alert.command), previous_command: nullableText(alert.previous_command) }),
    delivery: (delivery) => ({
      ...delivery,
      channel: { ...delivery.channel, name: text(delivery.channel.name) },
      last_error: nullableText(delivery.last_error),
      response_body: nullableText(delivery.response_body),
    }),
    pulse: (pulse) => ({ ...pulse, body: text(pulse.body) }),
    // Each string on its own, so that one cut at its start or end (an output tail) is seen as such.
    json: (value) => eachString(value, text),
    named: (resource) => ({ ...resource, name: text(resource.name), ...(resource.identifier === undefined ? {} : { identifier: text(resource.identifier) }) }),
  };
}
