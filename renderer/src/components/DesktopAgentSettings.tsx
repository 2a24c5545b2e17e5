import { useEffect, useState, type FormEvent } from 'react';
import type { DesktopAgentControl } from '../bridge';
import { Field, describedBy } from './Field';
import { FormError } from './FormParts';

type Choice = Awaited<ReturnType<DesktopAgentControl['choice']>>;

/**
 * The desktop app's choice of agent (docs/deploy.md): run it here, or be a window onto one on
 * another machine (its URL and a read-only or full key). Shown only inside the desktop app.
 */
export function DesktopAgentSettings({ control }: { control: DesktopAgentControl }) {
  const [choice, setChoice] = useState<Choice>(null);
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);

  useEffect(() => {
    void control.choice().then((current) => {
      setChoice(current);
      if (current?.remote) setUrl(current.remote.url);
    });
  }, [control]);

  async function connect(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await control.connect(url, key));
    } finally {
      setBusy(false);
    }
  }

  const remote = choice?.mode === 'remote' ? choice.remote : null;
  const fieldError = outcome && !outcome.ok ? outcome.message : undefined;
  return (
    <section className="card" aria-labelledby="desktop-agent-title">
      <h2 id="desktop-agent-title">Which agent this app shows</h2>
      <p className="muted">
        {remote
          ? `Connected to the agent at ${remote.url} (${remote.access} key): this window, the tray and the popups are that agent's.`
          : 'The agent runs inside this app. To watch an agent on an always-on machine instead, connect to it.'}
      </p>
      {remote ? (
        <p>
          <button type="button" className="button" onClick={() => control.runHere()}>
            Run the agent here
          </button>
        </p>
      ) : null}
      <form onSubmit={connect} noValidate>
        <Field id="agent-url" label="Address of the agent to connect to" hint="Such as https://cronbeat.example.com or http://backup-box:8787">
          <input id="agent-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} aria-describedby={describedBy('agent-url', true, undefined)} />
        </Field>
        <Field id="agent-key" label="API key" hint="Read-only to watch, full to also pause monitors: cronbeat token create --scope read-only">
          <input id="agent-key" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} aria-describedby={describedBy('agent-key', true, undefined)} />
        </Field>
        <FormError message={fieldError} />
        {outcome?.ok ? <p role="status">{outcome.message}</p> : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Checking…' : 'Connect'}
          </button>
        </div>
      </form>
    </section>
  );
}
