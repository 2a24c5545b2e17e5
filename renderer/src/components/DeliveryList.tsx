import type { Delivery } from '../api/types';
import { useApp } from '../lib/app-context';
import { CHANNEL_KIND_LABELS } from '../lib/channelKinds';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { Time } from './Time';

const LABELS: Record<Delivery['status'], string> = { pending: 'waiting', sending: 'sending', sent: 'sent', failed: 'failed' };
const TONES: Record<Delivery['status'], string> = { pending: 'badge-warn', sending: 'badge-busy', sent: 'badge-good', failed: 'badge-bad' };

function describe(d: Delivery): string {
  const tries = `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  if (d.status === 'sent') return `Sent (${tries})`;
  if (d.status === 'failed') return `Given up after ${tries}: ${d.last_error ?? ''}`;
  if (d.last_error) return `${tries} so far; next try ${d.next_attempt_at ?? ''}: ${d.last_error}`;
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
        <li key={d.id} title={describe(d)}>
          <span className={`badge ${TONES[d.status]}`}>
            {/* One inline phrase: the badge's flex gap would otherwise split "(Webhook)" from its colon. */}
            <span>
              {d.channel.name} <span className="muted">({CHANNEL_KIND_LABELS[d.channel.kind]})</span>: {LABELS[d.status]}
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
