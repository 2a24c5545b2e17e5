import { useApp } from './app-context';
import { useResource } from './use-resource';

/** Topics after which the unread count may have changed. */
export const UNREAD_TOPICS = ['notification.created', 'notification.read'];

/** How many notifications (of every kind) are unread, live; undefined until known. */
export function useUnreadCount(key: string): number | undefined {
  const { api } = useApp();
  const page = useResource((signal) => api.notifications(1, 1, signal, { unread: true }), `unread-${key}`, UNREAD_TOPICS);
  return page.data?.total;
}
