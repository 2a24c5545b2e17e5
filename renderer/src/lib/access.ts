import { useQuery } from '@tanstack/react-query';
import type { WireSession } from '../../../agent/contract/session';
import { changesAgentSettings, scopeAllows } from '../../../agent/domain/access/keyScopes';
import { useApp } from './app-context';
import { queries } from './queries';

/*
 * What the dashboard offers follows the key it is signed in with (GET /api/session's scope): a
 * read-only key (a wall display, a second desktop, a colleague who only watches) is shown the
 * data and no control whose request the agent would refuse. This file is the one place that
 * decides; screens ask useCanEdit() (or wrap their controls in <EditOnly>, components/ReadOnly.tsx).
 */

/**
 * Whether a key may change anything: every key that reads the dashboard but a read-only one. A
 * session not known (its read failed) changes as before: the agent still refuses what it must.
 */
export function mayChange(session: Pick<WireSession, 'scope'> | undefined): boolean {
  return session === undefined || scopeAllows(session.scope, 'write');
}

function useSession() {
  const { api } = useApp();
  return useQuery(queries.session(api));
}

/** Whether to show the controls that change something (add, edit, pause, delete, test, mark read…). */
export function useCanEdit(): boolean {
  return mayChange(useSession().data);
}

/**
 * Whether to show the controls of the agent's own settings (the public URL, the watchdog): a full
 * key of the agent's own company only, as the agent decides (another company's key reads them).
 */
export function useCanChangeAgentSettings(): boolean {
  const session = useSession().data;
  return session === undefined || changesAgentSettings(session.scope, session.company_id);
}

/** Said where those settings show without their controls to a key that may change the rest. */
export const AGENT_SETTINGS_NOTE = "These settings are the agent's own, shared by every company on it: a full key of company 1 changes them.";

/** True until the key's scope is known (or its read failed): screens wait, so no control shows and then goes. */
export function useAccessPending(): boolean {
  return useSession().isPending;
}

/**
 * Signing out: forgets the key in this browser, and asks the agent to revoke it (which it does
 * for a sign-in session only). A read-only key is never a session, and the agent would refuse it.
 */
export function useSignOut(): () => void {
  const { signOut } = useApp();
  const canEdit = useCanEdit();
  return () => signOut(canEdit);
}
