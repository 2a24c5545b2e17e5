import type { Refusal } from '../kind';

/**
 * What Slack answers an incoming webhook that cannot post any more (its "Handling errors"): the
 * token revoked or the app removed, the channel deleted or archived, posting forbidden there. A
 * message Slack refuses for its content (invalid_blocks, no_text) is not among them.
 */
const PERMANENT = new Set([
  'invalid_token',
  'no_service',
  'no_service_id',
  'no_team',
  'team_disabled',
  'channel_not_found',
  'channel_is_archived',
  'action_prohibited',
  'posting_to_general_channel_denied',
]);

export function permanent({ body }: Refusal): string | null {
  const word = (body ?? '').trim();
  return PERMANENT.has(word) ? `Slack says ${word}` : null;
}
