import type { ChannelKind } from '../../../domain/channels/kinds';
import type { ChannelKindModule } from './kind';
import { discord } from './discord';
import { email } from './email';
import { ntfy } from './ntfy';
import { slack } from './slack';
import { telegram } from './telegram';
import { webhook } from './webhook';

/** Every channel kind's module, by kind: a new kind is one file and one line here. */
export const CHANNEL_KIND_MODULES: { [K in ChannelKind]: ChannelKindModule<K> } = {
  webhook,
  ntfy,
  slack,
  discord,
  email,
  telegram,
};
