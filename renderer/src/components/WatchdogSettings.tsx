import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { useApp } from '../lib/app-context';
import { keys, queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { Time } from './Time';
import { describeError } from '../../../agent/domain/text/errorText';
import { useCanChangeAgentSettings } from '../lib/access';

/**
 * The watchdog: a dead-man's switch outside this machine that the agent pings every minute while
 * its monitor loop is healthy (docs/deploy.md). Its URL is a secret: once saved it is never shown
 * again, only that one is set; `cronbeat serve --watchdog-url` wins and is shown read-only.
 */
export function WatchdogSettings() {
  const { api } = useApp();
  const client = useQueryClient();
  const settings = useResource(queries.settings(api));
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isSet = Boolean(settings.data?.watchdog_url);
  const fromServe = settings.data?.watchdog_url_source === 'serve';
  const canEdit = useCanChangeAgentSettings();

  const save = async (value: string | null) => {
    setBusy(true);
    setError(null);
    try {
      client.setQueryData(keys.settings, await api.saveSettings({ watchdog_url: value }));
      setDraft('');
    } catch (failure) {
      const field = failure instanceof ApiError ? failure.fieldError('watchdog_url') : undefined;
      setError(field ?? describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(draft.trim() || null);
  };

  return (
    <section className="card" aria-labelledby="watchdog-title">
      <h2 id="watchdog-title">Watchdog</h2>
      <p className="muted">
        Who watches Cronbeat? Give the ping URL of a check elsewhere (a healthchecks.io check, an Uptime Kuma push monitor): the agent pings it
        every minute while it works, so that check alerts you when this agent stops or hangs.
      </p>
      <p className="field-hint" role="status">
        {fromServe
          ? 'Set by cronbeat serve --watchdog-url (or CRONBEAT_WATCHDOG_URL); change it there.'
          : isSet
            ? `A watchdog URL is set (it is a secret and is not shown).${canEdit ? ' Save another to replace it.' : ''}`
            : 'No watchdog URL is set.'}
      </p>
      {isSet ? (
        <dl className="facts">
          <div>
            <dt>Last ping answered</dt>
            <dd>
              <Time value={settings.data?.watchdog_last_ping_at} relative past empty="not yet" />
            </dd>
          </div>
          {settings.data?.watchdog_problem ? (
            <div>
              <dt>Now</dt>
              <dd>{settings.data.watchdog_problem}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {fromServe || !canEdit ? null : (
        <form className="inline-form" onSubmit={submit} noValidate aria-label="Watchdog URL">
          <label htmlFor="watchdog-url">Ping URL</label>
          <input
            id="watchdog-url"
            type="url"
            value={draft}
            placeholder="https://hc-ping.com/your-check-uuid"
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'watchdog-url-error' : undefined}
            autoComplete="off"
            spellCheck={false}
          />
          <button type="submit" className="button" disabled={busy || !draft.trim()}>
            {busy ? 'Saving…' : 'Save'}
          </button>
          {isSet ? (
            <button type="button" className="button" disabled={busy} onClick={() => void save(null)}>
              Remove
            </button>
          ) : null}
        </form>
      )}
      {error ? (
        <div className="field-error" id="watchdog-url-error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
