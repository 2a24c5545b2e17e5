import type { KeyScope } from '../domain/access/keyScopes';

/* The dashboard's session: what POST /api/session trades a sign-in code for, and what GET /api/session says of the key in use. */

/** The scopes a key that reached GET /api/session can have: ping and badge keys are refused before it. */
export type SessionScope = Extract<KeyScope, 'full' | 'read-only'>;

/** POST /api/session: the new session token (a full key named "dashboard"). */
export interface WireNewSession {
  token: string;
  token_id: number;
  company_id: number;
  name: string;
}

/**
 * GET /api/session: the key's company and id, whether it is a session made by a sign-in link, and
 * its scope, which tells the dashboard whether to offer changes (a read-only key is shown none).
 */
export interface WireSession {
  company_id: number;
  token_id: number;
  kind: 'session' | 'api_token';
  scope: SessionScope;
}
