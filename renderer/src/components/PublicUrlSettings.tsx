import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { useApp } from '../lib/app-context';
import { keys, queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { describeError } from '../../../agent/domain/text/errorText';
import { AGENT_SETTINGS_NOTE, useCanChangeAgentSettings, useCanEdit } from '../lib/access';
import { ErrorState, Loading } from './states';

/**
 * The public URL: the base of every link in alerts and of the copy-paste
 * lines. Set here, or by `cronbeat serve --public-url`, which wins and is shown read-only.
 */
export function PublicUrlSettings() {
  const { api } = useApp();
  const client = useQueryClient();
  const settings = useResource(queries.settings(api));
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = settings.data?.public_url ?? '';
  const fromServe = settings.data?.public_url_source === 'serve';
  const canEdit = useCanChangeAgentSettings();
  // A full key of another company may change its own things, not these: it is told why there is no field.
  const otherCompany = useCanEdit() && !canEdit;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const saved = await api.saveSettings({ public_url: (draft ?? current).trim() || null });
      client.setQueryData(keys.settings, saved);
      await client.invalidateQueries({ queryKey: keys.agent });
      await client.invalidateQueries({ queryKey: keys.monitors });
      setDraft(null);
    } catch (failure) {
      const field = failure instanceof ApiError ? failure.fieldError('public_url') : undefined;
      setError(field ?? describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  const intro = (
    <>
      <h2 id="public-url-title">Links in alerts</h2>
      <p className="muted">
        The address you open Cronbeat at from your phone or another computer, e.g. <code>https://cron.example.com</code>. Every link in
        alerts and every copy-paste line starts with it, and the agent answers to its host name.
      </p>
    </>
  );
  // Until the settings are read, nothing is said of the address: an empty field saved, or a "Not set"
  // read, would be about a URL that may well be set.
  if (!settings.data) {
    return (
      <section className="card" aria-labelledby="public-url-title">
        {intro}
        {settings.error ? <ErrorState error={settings.error} onRetry={settings.reload} /> : <Loading label="Loading settings…" />}
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="public-url-title">
      {intro}
      {canEdit ? (
        <form className="inline-form" onSubmit={save} noValidate aria-label="Public URL">
          <label htmlFor="public-url">Public URL</label>
          <input
            id="public-url"
            type="url"
            value={draft ?? current}
            placeholder="https://cron.example.com"
            disabled={fromServe}
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'public-url-error' : undefined}
            spellCheck={false}
          />
          {fromServe ? null : (
            <button type="submit" className="button" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </button>
          )}
        </form>
      ) : (
        // A key that may only read is shown the address, not a field it could not save.
        <dl className="facts">
          <div>
            <dt>Public URL</dt>
            <dd className={current ? 'code' : 'muted'} data-testid="public-url">
              {current || 'Not set'}
            </dd>
          </div>
        </dl>
      )}
      {otherCompany ? <p className="field-hint">{AGENT_SETTINGS_NOTE}</p> : null}
      {fromServe ? <p className="field-hint">Set by <code>cronbeat serve --public-url</code> (or CRONBEAT_PUBLIC_URL); change it there.</p> : null}
      {!current && !fromServe ? <p className="field-hint">{LOCAL_LINKS} Set one above, or start the agent with cronbeat serve --public-url.</p> : null}
      {error ? (
        <div className="field-error" id="public-url-error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}

const LOCAL_LINKS = 'No public URL is set: links in alerts point at this machine’s own address and open only on this machine.';

/** The channel form's warning when links would open only on this machine; nothing when a public URL is set. */
export function LocalLinksNote() {
  const { api } = useApp();
  const settings = useResource(queries.settings(api));
  if (!settings.data || settings.data.public_url) return null;
  return (
    <p className="field-hint" role="note">
      {LOCAL_LINKS} Set one in <a href="#/settings">Settings</a>, or start the agent with cronbeat serve --public-url.
    </p>
  );
}
