import { z } from 'zod';
import { onlyFields } from './fields';

/**
 * Which channels a monitor, server or certificate alerts: a list of channel ids, or
 * null for all of the company's channels. Left out (undefined) it means "all" on create and
 * "unchanged" on edit. That each id is a channel of the company is checked by the route
 * (channelRoutesRepository.checkChannelIds), which knows the company.
 */
export function channelIdsField() {
  return z
    .array(
      z
        .number({ error: 'The channel ids field must be a list of channel ids.' })
        .int('The channel ids field must be a list of channel ids.')
        .min(1, 'The channel ids field must be a list of channel ids.')
        .max(Number.MAX_SAFE_INTEGER, 'The channel ids field must be a list of channel ids.'),
      { error: 'The channel ids field must be a list of channel ids, or null for all channels.' },
    )
    .max(100, 'The channel ids field must not have more than 100 items.')
    .transform((ids) => [...new Set(ids)])
    .nullable()
    .optional();
}

/** The body of the channel_ids PATCH of monitors, servers and certificates. */
export const channelIdsPatch = onlyFields(z.object({ channel_ids: channelIdsField() }))
  .refine((body) => body.channel_ids !== undefined, {
    message: 'The channel ids field is required.',
    path: ['channel_ids'],
  });
