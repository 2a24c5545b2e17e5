import type { ReactNode } from 'react';

export function Loading(props: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {props.label ?? 'Loading…'}
    </div>
  );
}

export function EmptyState(props: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state state-empty" data-testid="empty-state">
      <h2>{props.title}</h2>
      {props.children ? <div className="muted">{props.children}</div> : null}
      {props.action ? <div className="state-action">{props.action}</div> : null}
    </div>
  );
}

/** A failed load. Marked so the end-to-end tests fail on any error state they did not expect. */
export function ErrorState(props: { error: Error; onRetry?: () => void; title?: string }) {
  // A 5xx is the agent (or a proxy before it) failing, not the request: "Server Error" alone says
  // neither that a retry may do nor where to look. A full disk (507) says both in its own words.
  const status = (props.error as { status?: unknown }).status;
  const agentFailed = typeof status === 'number' && status >= 500 && status !== 507;
  return (
    <div className="state state-error" role="alert" data-testid="error-state">
      <h2>{props.title ?? 'Something went wrong'}</h2>
      <p>{props.error.message}</p>
      {agentFailed ? <p className="muted">The agent failed to answer: trying again may work; its log says why.</p> : null}
      {props.onRetry ? (
        <button type="button" className="button" onClick={props.onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** A refresh that failed while older data is still on screen. */
export function StaleBanner(props: { error: Error | undefined; onRetry: () => void }) {
  if (!props.error) return null;
  return (
    <div className="banner banner-warning" role="status">
      Could not refresh: {props.error.message}{' '}
      <button type="button" className="link-button" onClick={props.onRetry}>
        Retry
      </button>
    </div>
  );
}
