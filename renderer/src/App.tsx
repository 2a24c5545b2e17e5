import { useCallback, useEffect, useState } from 'react';
import type { Credentials } from './api/client';
import { setUnauthenticatedHandler, UnauthenticatedError } from './api/client';
import { createApi } from './api/endpoints';
import { desktopBridge } from './bridge';
import { Layout } from './components/Layout';
import { AccessKnown, NeedsEdit } from './components/ReadOnly';
import { AppProvider } from './lib/app-context';
import { forgetToken, initialCredentials, onStoredTokenChange, storeToken } from './lib/credentials';
import { matchPath, navigate, parseHash, useRoute } from './lib/router';
import { CertificatesScreen } from './screens/Certificates';
import { ChannelsScreen } from './screens/Channels';
import { MaintenanceScreen } from './screens/Maintenance';
import { MonitorDetailScreen } from './screens/MonitorDetail';
import { MonitorEditScreen } from './screens/MonitorEdit';
import { MonitorNewScreen } from './screens/MonitorNew';
import { MonitorsScreen } from './screens/Monitors';
import { NotFoundScreen } from './screens/NotFound';
import { NotificationsScreen } from './screens/Notifications';
import { OverviewScreen } from './screens/Overview';
import { ServerDetailScreen } from './screens/ServerDetail';
import { ServerEditScreen } from './screens/ServerEdit';
import { ServerNewScreen } from './screens/ServerNew';
import { ServersScreen } from './screens/Servers';
import { SettingsScreen } from './screens/Settings';
import { SignInScreen } from './screens/SignIn';

function Screen(props: { path: string; query: URLSearchParams }) {
  const { path, query } = props;
  let params: Record<string, string> | null;
  if (path === '/') return <OverviewScreen />;
  if (path === '/monitors') return <MonitorsScreen query={query} />;
  if (path === '/monitors/new') return <NeedsEdit back={{ href: '#/monitors', label: 'Monitors' }}><MonitorNewScreen /></NeedsEdit>;
  if ((params = matchPath('/monitors/:id/edit', path)))
    return <NeedsEdit back={{ href: `#/monitors/${params.id}`, label: 'Monitor' }}><MonitorEditScreen id={Number(params.id)} /></NeedsEdit>;
  if ((params = matchPath('/monitors/:id', path))) return <MonitorDetailScreen id={Number(params.id)} />;
  if (path === '/servers') return <ServersScreen />;
  if (path === '/servers/new') return <NeedsEdit back={{ href: '#/servers', label: 'Servers' }}><ServerNewScreen /></NeedsEdit>;
  if ((params = matchPath('/servers/:id/edit', path)))
    return <NeedsEdit back={{ href: `#/servers/${params.id}`, label: 'Server' }}><ServerEditScreen id={Number(params.id)} /></NeedsEdit>;
  if ((params = matchPath('/servers/:id', path))) return <ServerDetailScreen id={Number(params.id)} />;
  if (path === '/certificates') return <CertificatesScreen />;
  if (path === '/maintenance') return <MaintenanceScreen />;
  if (path === '/channels') return <ChannelsScreen />;
  if (path === '/notifications') return <NotificationsScreen page={Number(query.get('page')) || 1} />;
  if (path === '/settings') return <SettingsScreen />;
  return <NotFoundScreen />;
}

export function App() {
  const route = useRoute();
  const bridge = desktopBridge();
  const [credentials, setCredentials] = useState<Credentials | null>(initialCredentials);

  const signIn = useCallback((token: string) => {
    setSessionEnded(false);
    setSignOutProblem(null);
    storeToken(token);
    setCredentials({ base: '', token });
  }, []);

  const [sessionEnded, setSessionEnded] = useState(false);
  const forget = useCallback(() => {
    if (credentials) forgetToken(credentials.token);
    setCredentials(null);
  }, [credentials]);
  const expire = useCallback(() => {
    forget();
    setSessionEnded(true);
  }, [forget]);

  // Why signing out did not end the session on the agent, said on the sign-in screen: the key
  // lives on there although this browser forgot it.
  const [signOutProblem, setSignOutProblem] = useState<string | null>(null);

  // `revoke`: false for a read-only key, which the agent would refuse (and which is no session to revoke).
  const signOut = useCallback((revoke: boolean) => {
    setSignOutProblem(null);
    if (credentials && !bridge && revoke) {
      createApi(credentials)
        .signOut()
        // A 401: the session had already ended.
        .catch((error: Error) => error instanceof UnauthenticatedError || setSignOutProblem(error.message));
    }
    forget();
    navigate('/sign-in', { replace: true });
  }, [credentials, bridge, forget]);

  // The tabs of a browser share one sign-in, as a cookie would: a sign-in in another tab is taken
  // up here (the session this tab held is signed out, so none is left behind unseen), and a
  // sign-out there, or a session that ended there, signs this tab out too.
  useEffect(() => {
    if (bridge) return;
    return onStoredTokenChange((token) => {
      if (!token) return expire();
      if (token === credentials?.token) return;
      // Only a sign-in session is revoked so; a pasted API token is left alone (agent/api/routes/session.ts).
      if (credentials) void createApi(credentials).signOut().catch(() => undefined);
      setSessionEnded(false);
      setCredentials({ base: '', token });
      if (parseHash(window.location.hash).path === '/sign-in') navigate('/', { replace: true });
    });
  }, [bridge, credentials, expire]);

  // A revoked or expired token sends a browser back to sign in (the desktop token never expires).
  // A key this tab no longer uses (given up for another tab's sign-in) being refused changes nothing.
  useEffect(
    () => setUnauthenticatedHandler(bridge ? () => undefined : (token) => token === credentials?.token && expire()),
    [bridge, credentials, expire],
  );

  // Tray menu entries and popup clicks open a route.
  useEffect(() => bridge?.onTrayAction((action) => action.type === 'navigate' && navigate(action.route)), [bridge]);

  if (!credentials || (route.path === '/sign-in' && !bridge)) {
    return <SignInScreen code={route.query.get('code')} sessionEnded={sessionEnded} signOutProblem={signOutProblem} signedIn={Boolean(credentials)} onSignedIn={signIn} />;
  }
  return (
    <AppProvider credentials={credentials} desktop={Boolean(bridge)} onSignOut={signOut}>
      <Layout path={route.path} search={route.query.toString()}>
        <AccessKnown>
          <Screen path={route.path} query={route.query} />
        </AccessKnown>
      </Layout>
    </AppProvider>
  );
}
