import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { redeemSignInCode, verifyToken } from '../api/endpoints';
import { navigate, parseHash } from '../lib/router';
import { SESSION_IDLE_DAYS } from '../../../agent/domain/access/sessions';

// One redemption per code even when React runs effects twice: codes are single use.
const redemptions = new Map<string, Promise<{ token: string }>>();

function redeemOnce(code: string) {
  let pending = redemptions.get(code);
  if (!pending) {
    pending = redeemSignInCode(code);
    redemptions.set(code, pending);
  }
  return pending;
}

export function SignInScreen(props: {
  code: string | null;
  sessionEnded: boolean;
  signOutProblem?: string | null;
  /** This browser holds a session already (a used link opened again where it signed in). */
  signedIn?: boolean;
  onSignedIn: (token: string) => void;
}) {
  const { code, onSignedIn } = props;
  const [codeError, setCodeError] = useState<ReactNode>(null);
  const [token, setToken] = useState('');
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = 'Sign in · Cronbeat';
  }, []);

  useEffect(() => {
    if (!code) return;
    let current = true;
    redeemOnce(code).then(
      (session) => {
        if (!current) return;
        onSignedIn(session.token);
        navigate('/', { replace: true });
      },
      (error: Error) => {
        if (!current) return;
        setCodeError(
          error instanceof ApiError && error.status === 0 ? (
            error.message
          ) : (
            <>
              {/* The agent's words say when a used link was used and for which key, so a link someone else used first is noticed. */}
              {(error instanceof ApiError && error.fieldError('code')) || 'This sign-in link has expired or was already used.'} Run{' '}
              <code>cronbeat signin</code> on the agent’s machine for a new one, or paste an API token below.
            </>
          ),
        );
      },
    );
    return () => {
      current = false;
    };
  }, [code, onSignedIn]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = token.trim();
    if (!value) {
      setTokenError('Paste an API token first (make one with cronbeat token create on the agent’s machine).');
      return;
    }
    setBusy(true);
    setTokenError(null);
    try {
      await verifyToken(value);
      onSignedIn(value);
      // A session that ended under an open page left its address: back to that page, not the Overview.
      if (parseHash(window.location.hash).path === '/sign-in') navigate('/', { replace: true });
    } catch (error) {
      setTokenError(error instanceof Error && error.message !== 'Unauthenticated.' ? error.message : 'The agent does not accept this token.');
    } finally {
      setBusy(false);
    }
  }

  const redeeming = Boolean(code) && !codeError;
  return (
    <main className="sign-in" id="main">
      <div className="sign-in-card">
        <div className="brand brand-large">
          <img src="./favicon.svg" alt="" width="32" height="32" />
          Cronbeat
        </div>
        {redeeming ? (
          <p role="status" className="sign-in-status">
            <span className="spinner" aria-hidden="true" /> Signing you in…
          </p>
        ) : (
          <>
            <h1>Sign in</h1>
            {props.signOutProblem ? (
              <p className="banner banner-error" role="alert">
                Signed out in this browser, but the agent did not end the session: {props.signOutProblem} Once it is back, sign in and revoke the older
                keys named “dashboard” in Settings; unused, a session ends by itself after {SESSION_IDLE_DAYS} days.
              </p>
            ) : null}
            {codeError ? (
              <p className="banner banner-error" role="alert" data-testid="error-state">
                {codeError}
                {props.signedIn ? (
                  <>
                    {' '}This browser is still signed in. <a href="#/">Open the dashboard</a>
                  </>
                ) : null}
              </p>
            ) : (
              <p className="muted">
                {props.sessionEnded ? `Your session has ended (signed out elsewhere, unused for ${SESSION_IDLE_DAYS} days, or its key was revoked). ` : null}
                Open the sign-in link that <code>cronbeat serve</code> printed (<code>cronbeat signin</code> prints a new one), or paste an API token.
              </p>
            )}
            <form onSubmit={submit} noValidate>
              <div className={`field${tokenError ? ' field-invalid' : ''}`}>
                <label htmlFor="api-token">API token</label>
                <input
                  id="api-token"
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  value={token}
                  onChange={(e) => setToken(e.target.value)}
                  aria-invalid={Boolean(tokenError)}
                  aria-describedby={tokenError ? 'api-token-error' : 'api-token-hint'}
                />
                <div className="field-hint" id="api-token-hint">
                  Make one on the agent’s machine with <code>cronbeat token create</code> (from a clone: <code>node dist/cronbeat.cjs token create</code>).
                </div>
                {tokenError ? (
                  <div className="field-error" id="api-token-error" role="alert">
                    {tokenError}
                  </div>
                ) : null}
              </div>
              <button type="submit" className="button button-primary" disabled={busy}>
                {busy ? 'Checking…' : 'Sign in'}
              </button>
            </form>
          </>
        )}
      </div>
    </main>
  );
}
