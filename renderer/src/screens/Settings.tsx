import { pageAgentBase } from '../api/client';
import { PageHeader } from '../components/Layout';
import { CopyField } from '../components/CopyField';
import { DesktopAgentSettings } from '../components/DesktopAgentSettings';
import { PublicUrlSettings } from '../components/PublicUrlSettings';
import { WatchdogSettings } from '../components/WatchdogSettings';
import { KeySettings } from '../components/KeySettings';
import { desktopBridge } from '../bridge';
import { useApp } from '../lib/app-context';
import { useCanEdit, useSignOut } from '../lib/access';

export function SettingsScreen() {
  const { api, desktop, liveState } = useApp();
  const signOut = useSignOut();
  const canEdit = useCanEdit();
  const agentUrl = api.credentials.base || pageAgentBase();
  const bridge = desktopBridge();
  return (
    <>
      <PageHeader title="Settings" />
      <section className="card" aria-labelledby="agent-title">
        <h2 id="agent-title">Agent</h2>
        <CopyField label="Agent address" value={agentUrl} />
        <p className="muted">
          Jobs on this machine send pulses here; on another machine, pass <code>--url</code> or set <code>CRONBEAT_URL</code>.
        </p>
        <dl className="facts">
          <div>
            <dt>Live updates</dt>
            <dd>{liveState === 'live' ? 'Connected' : 'Reconnecting (refreshing every 5 s)'}</dd>
          </div>
          <div>
            <dt>Running in</dt>
            <dd>{bridge ? `Desktop app (${bridge.platform})` : 'Browser'}</dd>
          </div>
        </dl>
      </section>
      <PublicUrlSettings />
      <WatchdogSettings />
      {bridge?.desktopAgent ? <DesktopAgentSettings control={bridge.desktopAgent} /> : null}
      {canEdit ? (
        <KeySettings />
      ) : (
        // The agent shows the key list to a full key only: it says where every key is used.
        <section className="card" aria-labelledby="keys-title">
          <h2 id="keys-title">API keys</h2>
          <p className="muted">Only a full key may see or manage API keys.</p>
        </section>
      )}
      {desktop ? null : (
        <section className="card" aria-labelledby="session-title">
          <h2 id="session-title">Session</h2>
          <p className="muted">
            {canEdit
              ? 'Signing out forgets the session in this browser and revokes it on the agent.'
              : 'Signing out forgets this key in this browser; the key itself stays valid (revoke it with a full key).'}
          </p>
          <button type="button" className="button" onClick={signOut}>
            Sign out
          </button>
        </section>
      )}
    </>
  );
}
