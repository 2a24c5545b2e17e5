import { useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { WireKey, WireNewKey } from '../../../agent/contract/keys';
import { KEY_SCOPES, type KeyScope } from '../../../agent/domain/access/keyScopes';
import { ApiError } from '../api/client';
import { useApp } from '../lib/app-context';
import { keys, queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { ConfirmDialog } from './ConfirmDialog';
import { CopyField } from './CopyField';
import { Time } from './Time';
import { describeError } from '../../../agent/domain/text/errorText';

const SCOPE_WORDS: Record<KeyScope, string> = {
  full: 'Full: everything',
  'read-only': 'Read-only: lists, /metrics, the live stream',
  ping: 'Ping: pulses, monitors from a job’s line, crontab watch (for servers and crontabs)',
  badge: 'Badge: status badges only (safe in a public README)',
};

/** API keys: the company's live keys with their last use; a new key is shown once; revoking is at once. */
export function KeySettings() {
  const { api } = useApp();
  const client = useQueryClient();
  const list = useResource(queries.keys(api));
  const [name, setName] = useState('');
  const [scope, setScope] = useState<KeyScope>('ping');
  const [created, setCreated] = useState<WireNewKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<WireKey | null>(null);
  const [busy, setBusy] = useState(false);
  // A second click before the first answer would make a second key whose secret nobody sees.
  const sending = useRef(false);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    setError(null);
    try {
      const key = await api.createKey({ name: name.trim(), scope });
      setCreated(key);
      setName('');
      await client.invalidateQueries({ queryKey: keys.keys });
    } catch (failure) {
      const field = failure instanceof ApiError ? (failure.fieldError('name') ?? failure.fieldError('scope')) : undefined;
      setError(field ?? describeError(failure));
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">
        A <strong>ping</strong> key goes on servers and into crontabs (<code>CRONBEAT_API_TOKEN</code>): it sends pulses, creates
        monitors from a job’s line and sends <code>cronbeat crontab watch</code>’s reports, nothing else. A <strong>read-only</strong> key suits a wall display or Prometheus; a{' '}
        <strong>badge</strong> key, status badges in a README.
      </p>
      {list.error ? <p className="field-error">{list.error.message}</p> : null}
      {list.data ? (
        <div className="table-wrap"><table className="table" aria-label="API keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col" title="How many monitors the key's job lines may make (cronbeat token limit ID --max-monitors N)">Max monitors</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((key) => (
              <tr key={key.id}>
                <td className="cell-name">{key.name}</td>
                <td>{key.scope}</td>
                <td>
                  <Time value={key.created_at} relative past />
                </td>
                <td>
                  <Time value={key.last_used_at} relative past empty="never" />
                </td>
                <td>{key.scope === 'ping' || key.scope === 'full' ? key.max_monitors : '—'}</td>
                <td>
                  <button type="button" className="button button-danger-quiet" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table></div>
      ) : null}
      <form className="inline-form" style={{ marginTop: 16 }} onSubmit={create} noValidate aria-label="New API key">
        <label htmlFor="key-name">Name</label>
        <input id="key-name" value={name} placeholder="web-01" onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(error)} aria-describedby={error ? 'key-error' : undefined} />
        <label htmlFor="key-scope">Scope</label>
        <select id="key-scope" value={scope} onChange={(e) => setScope(e.target.value as KeyScope)}>
          {KEY_SCOPES.map((each) => (
            <option key={each} value={each}>
              {SCOPE_WORDS[each]}
            </option>
          ))}
        </select>
        <button type="submit" className="button" disabled={busy}>
          Create key
        </button>
      </form>
      {error ? (
        <div className="field-error" id="key-error" role="alert">
          {error}
        </div>
      ) : null}
      {created ? (
        <div className="new-key" role="status">
          <CopyField label={`New ${created.scope} key “${created.name}”`} value={created.key} />
          <p className="field-hint">Copy it now: it is shown this once. Only its hash is kept.</p>
        </div>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        message="Anything that uses this key is refused from its next request, and the monitors its job lines hold get new pulse tokens (hand them to the key that replaces it). This cannot be undone."
        confirmLabel="Revoke"
        busyLabel="Revoking…"
        onConfirm={async () => {
          if (revoking) await api.revokeKey(revoking.id);
          if (created && revoking && created.id === revoking.id) setCreated(null);
          await client.invalidateQueries({ queryKey: keys.keys });
        }}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
