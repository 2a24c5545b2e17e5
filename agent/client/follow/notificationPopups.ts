import { MAX_SEPARATE_POPUPS } from '../../domain/alerts/monitorPopups';
import type { Popup } from '../../domain/alerts/popup';
import type { FollowedNotification } from './notificationCursor';

/** A desktop popup as the follower raises it: the agent's own shape, always leading somewhere. */
export type FollowerPopup = Popup & { route: string };

const TITLES_IN_SUMMARY = 5;

/** The dashboard page of what a notification is about: the monitor or server; certificates have a list. */
export function notificationRoute(notification: FollowedNotification): string {
  const { type, type_id } = notification.data;
  if (type === 'monitor') return `/monitors/${type_id}`;
  if (type === 'server') return `/servers/${type_id}`;
  if (type === 'ssl_certificate') return '/certificates';
  return '/notifications';
}

/**
 * The popups for notifications that arrived together (oldest first): one each, or one summary
 * when there are more than MAX_SEPARATE_POPUPS (the agent's own limit), e.g. "7 notifications while you were away".
 * None for none.
 */
export function followerPopups(notifications: FollowedNotification[], { catchingUp, sinceLastRun }: { catchingUp: boolean; sinceLastRun?: boolean }): FollowerPopup[] {
  if (notifications.length <= MAX_SEPARATE_POPUPS) {
    return notifications.map((n) => ({ title: n.data.title, body: n.data.description, route: notificationRoute(n) }));
  }
  const titles = notifications.slice(-TITLES_IN_SUMMARY).map((n) => n.data.title);
  const more = notifications.length - titles.length;
  return [
    {
      title: `${notifications.length} notifications${sinceLastRun ? ' while Cronbeat was closed' : catchingUp ? ' while the connection was down' : ''}`,
      body: [...titles, ...(more > 0 ? [`and ${more} earlier`] : [])].join('\n'),
      route: '/notifications',
    },
  ];
}

/** One line for a terminal: "2026-11-25 14:02:11  nightly backup failed: No pulse since 02:00 …". */
export function notificationLine(notification: FollowedNotification): string {
  const at = notification.created_at.slice(0, 19).replace('T', ' ');
  // One line whatever the agent sent: a line break in a title must not pass for another notification.
  const title = notification.data.title.replace(/\s+/g, ' ').trim();
  const description = notification.data.description.replace(/\s+/g, ' ').trim();
  return `${at} UTC  ${title}${description ? `: ${description}` : ''}`;
}
