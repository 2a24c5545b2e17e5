import type { Delivery } from '../api/types';
import { useApp } from '../lib/app-context';
import { kindLabel } from '../lib/channelKinds';
import { formatInSentence, utcTitle } from '../lib/format';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { Time } from './Time';

const LABELS: Record<Delivery['status'], string> = { pending: 'waiting', sending: 'sending', sent: 'sent', failed: 'failed' };
const TONES: Record<Delivery['status'], string> = { pending: 'badge-warn', sending: 'badge-busy', sent: 'badge-good', failed: 'badge-bad' };

/** "15:32 today (14:32:00 UTC)": a time in the viewer's zone, then UTC, for a tooltip's plain text. */
function tooltipTime(iso: string): string {
  return `${formatInSentence(Date.parse(iso))} (${utcTitle(iso)})`;
}

/** The badge's word: "waiting until 07:00" while the channel's quiet hours hold it (the viewer's clock). */
export function deliveryLabel(d: Delivery): string {
  if (d.status === 'pending' && d.held_until) return `waiting until ${formatInSentence(Date.parse(d.held_until)).replace(/ today$/, '')}`;
  return LABELS[d.status];
}

/** The delivery's story for its tooltip, its times in the viewer's zone (never raw ISO times). */
export function describeDelivery(d: Delivery): string {
  const tries = `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  // A mail server's answer says which recipients it refused while it took the others: the mail counts as sent.
  const answer = d.channel.kind === 'email' && d.response_body ? `: ${d.response_body}` : '';
  if (d.status === 'sent') return `Sent${d.sent_at ? ` ${tooltipTime(d.sent_at)}` : ''} (${tries})${answer}`;
  if (d.status === 'failed') return `Given up after ${tries}: ${d.last_error ?? ''}`;
  if (d.status === 'pending' && d.held_until) return `Held by the channel's quiet hours: sent when they end, ${tooltipTime(d.held_until)}`;
  if (d.last_error) return `${tries} so far; ${d.next_attempt_at ? `next try ${tooltipTime(d.next_attempt_at)}` : 'tried again soon'}: ${d.last_error}`;
  return 'Waiting to be sent';
}

/** Where a notification was delivered: one badge per channel with its state; the error on hover. */
export function DeliveryList(props: { notificationId: string }) {
  const { api } = useApp();
  const deliveries = useResource(queries.deliveries(api, props.notificationId));
  const list = deliveries.data ?? [];
  if (list.length === 0) return null;
  return (
    <ul className="delivery-list" aria-label="Deliveries" data-testid="deliveries">
      {list.map((d) => (
        <li key={d.id} title={describeDelivery(d)}>
          <span className={`badge ${TONES[d.status]}`}>
            {/* One inline phrase: the badge's flex gap would otherwise split "(Webhook)" from its colon. */}
            <span>
              {d.channel.name} <span className="muted">({kindLabel(d.channel.kind)})</span>: {deliveryLabel(d)}
              {d.status === 'sent' && d.sent_at ? (
                <>
                  {' '}
                  <Time value={d.sent_at} relative past />
                </>
              ) : null}
            </span>
          </span>
          {d.status !== 'sent' && d.last_error ? <span className="delivery-error">{d.last_error}</span> : null}
        </li>
      ))}
    </ul>
  );
}
