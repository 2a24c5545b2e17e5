import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Api } from '../api/endpoints';
import { createApi } from '../api/endpoints';
import type { Credentials } from '../api/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LiveFeed, type LiveState } from './live';
import { LiveCache } from './liveCache';

/** Entries are kept fresh by the live stream, not by age; a failed load shows at once (the screens offer "Try again"). */
function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { staleTime: Infinity, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false } },
  });
}

interface AppContextValue {
  api: Api;
  live: LiveFeed;
  liveState: LiveState;
  /** True inside the desktop window, where there is no sign-in or sign-out. */
  desktop: boolean;
  /** Forgets the key here; `revoke` also revokes it on the agent when it is a sign-in session (lib/access.ts: useSignOut). */
  signOut: (revoke: boolean) => void;
}

const AppContext = createContext<AppContextValue | null>(null);

export function AppProvider(props: { credentials: Credentials; desktop: boolean; onSignOut: (revoke: boolean) => void; children: ReactNode }) {
  const { credentials, desktop, onSignOut } = props;
  const api = useMemo(() => createApi(credentials), [credentials]);
  const live = useMemo(() => new LiveFeed(credentials), [credentials]);
  const queryClient = useMemo(() => (void credentials, newQueryClient()), [credentials]);
  const [liveState, setLiveState] = useState<LiveState>(live.state);
  useEffect(() => {
    const cache = new LiveCache(queryClient, api);
    const offEvents = live.subscribe((event) => cache.handle(event));
    const off = live.onState(setLiveState);
    live.start();
    return () => {
      off();
      offEvents();
      cache.stop();
      live.stop();
    };
  }, [live, queryClient, api]);
  const value = useMemo(
    () => ({ api, live, liveState, desktop, signOut: onSignOut }),
    [api, live, liveState, desktop, onSignOut],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <AppContext.Provider value={value}>{props.children}</AppContext.Provider>
    </QueryClientProvider>
  );
}

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside AppProvider');
  return value;
}
