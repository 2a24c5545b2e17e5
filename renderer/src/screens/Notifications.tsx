import { useState } from 'react';
import type { AppNotification } from '../api/types';
import { describeError } from '../../../agent/domain/text/errorText';
import { PROBLEM_WORDS, problemOf } from '../../../agent/domain/alerts/vocabulary';
import { DeliveryList } from '../components/DeliveryList';
import { KindIcon } from '../components/KindIcon';
import { PageHeader } from '../components/Layout';
import { Pager } from '../components/Pager';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { Time } from '../components/Time';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { useResource } from '../lib/use-resource';
import './Notifications.css';
import { AlertDescription } from '../components/AlertDescription';
import { useUnreadCount } from '../lib/use-unread';
import { queries } from '../lib/queries';
import { useCanEdit } from '../lib/access';
import { viewerZone } from '../lib/schedule';

const PER_PAGE = 20;

const goodStatuses = new Set(['recovered', 'valid', 'reporting']);
const warnStatuses = new Set(['expiring', 'altered', 'flapping']);

export function notificationTone(notification: AppNotification): 'good' | 'warn' | 'bad' {
  const status = notification.data.status;
  // Steady again after flapping: good news only when it is fine now.
  if (status === 'steady') return (notification.data as { monitor_is_alerted?: number }).monitor_is_alerted === 1 ? 'bad' : 'good';
  if (goodStatuses.has(status)) return 'good';
  if (warnStatuses.has(status)) return 'warn';
  return 'bad';
}

const statusWords: Record<string, string> = {
  failed: 'Failed',
  recovered: 'Recovered',
  valid: 'Valid',
  expiring: 'Expiring',
  expired: 'Expired',
  invalid: 'Invalid',
  unreachable: 'Unreachable',
  still_failing: 'Still failing',
  quiet: 'Quiet',
  reporting: 'Reporting again',
  flapping: 'Flapping',
  steady: 'Steady again',
};

/** The word that says what happened, so colour is never the only sign ("Failed", "Missed", "Stuck", "Recovered"). */
export function notificationWord(notification: AppNotification): string | null {
  // A server alert's status is always "altered" (the spec's); its title says added, removed or altered.
  if (notification.data.type === 'server' && notification.data.status === 'altered') return null;
  // A monitor's failure in the one vocabulary, from its alert as data: the spec's status says "failed" for all three.
  const problem = notification.data.status === 'failed' ? problemOf(notification.alert?.reason) : null;
  if (problem) return PROBLEM_WORDS[problem].label;
  return statusWords[notification.data.status] ?? null;
}

/** The dashboard page a notification is about, or null when it has none. */
export function notificationHref(notification: AppNotification): string | null {
  const { type, type_id: id } = notification.data;
  if (type === 'monitor') return `#/monitors/${id}`;
  if (type === 'server') return `#/servers/${id}`;
  if (type === 'ssl_certificate') return '#/certificates';
  return null;
}

/**
 * Marks a notification read or unread (the list refreshes from the live event); undefined for a
 * read-only key, whose list then offers no marking and opening one marks nothing. Rejects with the
 * agent's refusal, for the list to show.
 */
export function useToggleRead(): ((n: AppNotification, read: boolean) => Promise<void>) | undefined {
  const { api } = useApp();
  if (!useCanEdit()) return undefined;
  return async (n, read) => {
    if (Boolean(n.read_at) !== read) await api.markNotificationRead(n.id, read);
  };
}

/** The notifications; with `onRead`, each can be marked read or unread, and opening one marks it read. */
export function NotificationList(props: {
  notifications: AppNotification[];
  onRead?: (n: AppNotification, read: boolean) => Promise<void>;
  showDeliveries?: boolean;
}) {
  // The last refusal, beside the notification it was about: a button that seems to do nothing leaves no way forward.
  const [refused, setRefused] = useState<{ id: string; message: string } | null>(null);
  const toggleRead = (n: AppNotification, read: boolean) => {
    if (!props.onRead) return;
    setRefused(null);
    props.onRead(n, read).catch((error: unknown) => setRefused({ id: n.id, message: `Could not mark it ${read ? 'read' : 'unread'}: ${describeError(error)}` }));
  };
  return (
    <ul className="notification-list">
      {props.notifications.map((n) => {
        const href = notificationHref(n);
        return (
          <li key={n.id} className={`notification${n.read_at ? '' : ' notification-unread'}`} data-testid="notification">
            <KindIcon kind={n.data.type} tone={notificationTone(n)} status={n.data.status} />
            <div className="notification-body">
              <div className="notification-title">
                {notificationWord(n) ? <span className={`status-word status-word-${notificationTone(n)}`}>{notificationWord(n)}</span> : null}
                {href ? (
                  <a href={href} onClick={() => toggleRead(n, true)}>
                    {n.data.title}
                  </a>
                ) : (
                  n.data.title
                )}
              </div>
              <div className="notification-description"><AlertDescription alert={n.alert} description={n.data.description} /></div>
              {props.showDeliveries ? <DeliveryList notificationId={n.id} /> : null}
              {refused?.id === n.id ? (
                <p className="field-error" role="alert">
                  {refused.message}
                </p>
              ) : null}
            </div>
            <div className="notification-time">
              <Time value={n.created_at} relative past />
              {props.onRead ? (
                <button
                  type="button"
                  className="link-button"
                  data-testid="toggle-read"
                  onClick={() => toggleRead(n, !n.read_at)}
                  aria-label={`Mark “${n.data.title}” ${n.read_at ? 'unread' : 'read'}`}
                >
                  {n.read_at ? 'Mark unread' : 'Mark read'}
                </button>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** "Mark all read", shown while some notification is unread. */
function MarkAllRead() {
  const { api } = useApp();
  const unread = useUnreadCount();
  const canEdit = useCanEdit();
  const [error, setError] = useState<string | null>(null);
  if (!unread || !canEdit) return null;
  const markAll = () => {
    setError(null);
    api.markAllNotificationsRead().catch((caught: unknown) => setError(`Could not mark them read: ${describeError(caught)}`));
  };
  return (
    <>
      {error ? (
        <span className="field-error" role="alert" data-testid="mark-all-read-error">
          {error}
        </span>
      ) : null}
      <button type="button" className="button" onClick={markAll}>
        Mark all read
      </button>
    </>
  );
}

export function NotificationsScreen(props: { page: number }) {
  const { api } = useApp();
  const toggleRead = useToggleRead();
  const page = useResource(queries.notifications(api, props.page, PER_PAGE));
  let body;
  if (page.loading) body = <Loading label="Loading notifications…" />;
  else if (!page.data) body = <ErrorState error={page.error!} onRetry={page.reload} />;
  else if (page.data.total === 0)
    body = <EmptyState title="No notifications">Failures, recoveries, certificate changes and server alerts are listed here as they happen.</EmptyState>;
  else if (page.data.data.length === 0)
    body = (
      <EmptyState title="This page is empty" action={<a className="button" href="#/notifications">First page</a>}>
        There are {page.data.total} notifications, on {page.data.last_page} pages.
      </EmptyState>
    );
  else
    body = (
      <>
        <StaleBanner error={page.error} onRetry={page.reload} />
        <NotificationList notifications={page.data.data} onRead={toggleRead} showDeliveries />
        <div className="list-footer">
          <span className="muted">
            {page.data.from}–{page.data.to} of {page.data.total}
          </span>
          <Pager page={page.data} label="Notification pages" onPage={(n) => navigate(`/notifications?page=${n}`)} />
        </div>
      </>
    );
  return (
    <>
      <PageHeader title="Notifications" subtitle={`Newest first. Times in your zone, ${viewerZone()} (UTC on hover)`} actions={<MarkAllRead />} />
      {body}
    </>
  );
}
