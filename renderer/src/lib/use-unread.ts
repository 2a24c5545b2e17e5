import { useQuery } from '@tanstack/react-query';
import { useApp } from './app-context';
import { queries } from './queries';

/** How many notifications (of every kind) are unread, live; undefined until known. One cache entry for every place that shows it. */
export function useUnreadCount(): number | undefined {
  const { api } = useApp();
  return useQuery(queries.unreadCount(api)).data;
}
