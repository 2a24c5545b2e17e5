import type { ChannelKind } from '../../../contract/channels';
import { bounded, permanentFailure } from '../../../domain/channels/delivery';
import type { AttemptResult } from '../attempt';
import type { ChannelKindModule } from './kind';
import { discord } from './discord';
import { email } from './email';
import { ntfy } from './ntfy';
import { slack } from './slack';
import { telegram } from './telegram';
import { webhook } from './webhook';

/** Every channel kind's module, by kind: a new kind is one folder and one line here. */
export const CHANNEL_KIND_MODULES: { [K in ChannelKind]: ChannelKindModule<K> } = {
  webhook,
  ntfy,
  slack,
  discord,
  email,
  telegram,
};

/** `result` as `kind` judges it: a refusal the kind calls permanent is marked so, and says it is not retried. */
export function judged(kind: ChannelKind, result: AttemptResult): AttemptResult {
  if (result.ok) return result;
  // Said here, not by the send: a test send is not sent again.
  if (result.deferred?.length) return { ...result, error: bounded(`${result.error ?? ''} This is sent again to ${result.deferred.length === 1 ? 'it' : 'them'} alone.`.trim()) };
  const module: ChannelKindModule<ChannelKind> = CHANNEL_KIND_MODULES[kind];
  const refusal = { status: result.responseStatus, body: result.responseBody, smtp: result.smtp ?? null };
  const retryAfter = result.retryAfter ?? module.retryAfter?.(refusal) ?? undefined;
  const said = module.permanent(refusal);
  const withWait = retryAfter === undefined ? result : { ...result, retryAfter };
  return said === null ? withWait : { ...withWait, permanent: true, error: bounded(permanentFailure(said)) };
}
