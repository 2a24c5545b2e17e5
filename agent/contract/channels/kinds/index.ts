import type { z } from 'zod';
import { discord } from './discord';
import { email } from './email';
import { ntfy } from './ntfy';
import { slack } from './slack';
import { telegram } from './telegram';
import { webhook } from './webhook';
import type { ChannelKindDescription } from './kind';

/**
 * Every kind of notification channel, in the order the dashboard offers them: the one list. The
 * API's kinds and settings schemas, the secret and destination settings, the dashboard's labels
 * and forms are all read from it; the engine's modules (agent/engine/delivery/kinds/) are typed
 * by it, so a kind without its module does not compile.
 */
export const CHANNEL_KIND_DESCRIPTIONS = { webhook, ntfy, slack, discord, email, telegram };

export type ChannelKind = keyof typeof CHANNEL_KIND_DESCRIPTIONS;

export const CHANNEL_KINDS = Object.keys(CHANNEL_KIND_DESCRIPTIONS) as [ChannelKind, ...ChannelKind[]];

/** Each kind's settings as the API stores them (after its schema). */
export type ChannelSettings = { [K in ChannelKind]: z.output<(typeof CHANNEL_KIND_DESCRIPTIONS)[K]['settings']> };

/** The description of `kind`. */
export function channelKind(kind: ChannelKind): ChannelKindDescription {
  return CHANNEL_KIND_DESCRIPTIONS[kind] as unknown as ChannelKindDescription;
}

export { DEFAULT_NTFY_SERVER } from './ntfy';
export { DEFAULT_TELEGRAM_API } from './telegram';
export type { ChannelFormField, ChannelKindDescription } from './kind';
