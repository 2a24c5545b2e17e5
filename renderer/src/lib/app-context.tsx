import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Api } from '../api/endpoints';
import { createApi } from '../api/endpoints';
import type { Credentials } from '../api/client';
import { LiveFeed, type LiveState } from './live';

interface AppContextValue {
  api: Api;
  live: LiveFeed;
  liveState: LiveState;
  /** True inside the desktop window, where there is no sign-in or sign-out. */
  desktop: boolean;
  signOut: () => void;
}

const AppContext = createContext<AppContextValue | null>(null);

export function AppProvider(props: { credentials: Credentials; desktop: boolean; onSignOut: () => void; children: ReactNode }) {
  const { credentials, desktop, onSignOut } = props;
  const api = useMemo(() => createApi(credentials), [credentials]);
  const live = useMemo(() => new LiveFeed(credentials), [credentials]);
  const [liveState, setLiveState] = useState<LiveState>(live.state);
  useEffect(() => {
    const off = live.onState(setLiveState);
    live.start();
    return () => {
      off();
      live.stop();
    };
  }, [live]);
  const value = useMemo(
    () => ({ api, live, liveState, desktop, signOut: onSignOut }),
    [api, live, liveState, desktop, onSignOut],
  );
  return <AppContext.Provider value={value}>{props.children}</AppContext.Provider>;
}

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside AppProvider');
  return value;
}
