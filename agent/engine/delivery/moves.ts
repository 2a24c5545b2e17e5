import type { Store } from '../../db/store';
import type { ChannelRow } from '../../db/channels';
import type { ChannelKind, ChannelSettings } from '../../contract/channels';
import type { AttemptResult } from './attempt';
import { CHANNEL_KIND_MODULES } from './kinds';
import type { ChannelKindModule } from './kinds/kind';

/**
 * When the service answered that the channel's destination moved (a Telegram group that became a
 * supergroup answers with its new chat id, and will refuse the old one for ever), the channel is
 * changed to it, as healthchecks.io does, and the attempt's error says so; null for any other answer.
 * The new destination is the service's own word, on the same server the token already goes to.
 */
export function followMove(store: Pick<Store, 'channels'>, channel: ChannelRow, result: AttemptResult, now: number): AttemptResult | null {
  if (result.ok || result.responseStatus === null) return null;
  const module: ChannelKindModule<ChannelKind> = CHANNEL_KIND_MODULES[channel.kind];
  const moved = module.moved?.(channel.settings as ChannelSettings[ChannelKind], { status: result.responseStatus, body: result.responseBody, smtp: null });
  // Moved to where it was just sent: nothing changes, and sending there again at once would be refused again.
  if (!moved || JSON.stringify(moved.settings) === JSON.stringify(channel.settings)) return null;
  const fields = { name: channel.name, settings: moved.settings as Record<string, unknown>, quietHours: channel.quiet_hours, remindEveryHours: channel.remind_every_hours };
  if (!store.channels.update(channel.company_id, channel.id, fields, now)) return null;
  return { ...result, permanent: false, error: `${(result.error ?? '').replace(/\.$/, '')}. The channel was changed: ${moved.words}; sending again.` };
}
