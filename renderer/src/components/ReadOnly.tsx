import type { ReactNode } from 'react';
import { useAccessPending, useCanEdit } from '../lib/access';
import { PageHeader } from './Layout';
import { Loading } from './states';

/** Its children only for a key that may change things (lib/access.ts); nothing for a read-only key. */
export function EditOnly(props: { children: ReactNode }) {
  return useCanEdit() ? <>{props.children}</> : null;
}

/** The screen once the key's scope is known. */
export function AccessKnown(props: { children: ReactNode }) {
  return useAccessPending() ? <Loading /> : <>{props.children}</>;
}

/**
 * A screen that is only a form (a new or edited monitor or server): for a read-only key, opened by
 * its address or an old bookmark, a short page that says why instead of a form it could not send.
 */
export function NeedsEdit(props: { back: { href: string; label: string }; children: ReactNode }) {
  if (useCanEdit()) return <>{props.children}</>;
  return (
    <>
      <PageHeader title="This key is read-only" back={props.back} />
      <p className="muted" data-testid="read-only-page">
        It may watch, not change: sign in with a full key to add or edit.
      </p>
    </>
  );
}
