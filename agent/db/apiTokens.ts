import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from './open';
import type { KeyScope } from '../domain/access/keyScopes';
import { sessionIdleTooLong } from '../domain/access/sessions';

export interface ApiTokenRow {
  id: number;
  company_id: number;
  name: string;
  scope: KeyScope;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** How many monitors its lines may make (migration 23); null: DEFAULT_MAX_LINE_MONITORS. */
  max_monitors: number | null;
}

const PREFIX = 'cb_';

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** API tokens: 256 random bits, stored only as their SHA-256 hash. */
export function apiTokenRepository(db: Db) {
  const insert = db.prepare(
    'INSERT INTO api_tokens (company_id, name, scope, token_hash, created_at, max_monitors) VALUES (@companyId, @name, @scope, @hash, @now, @maxMonitors)',
  );
  const byHash = db.prepare(
    'SELECT id, company_id, scope, token_hash, created_at, last_used_at FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL',
  );
  const columns = 'id, company_id, name, scope, created_at, last_used_at, revoked_at, max_monitors';
  const list = db.prepare(`SELECT ${columns} FROM api_tokens ORDER BY id`);
  const listLive = db.prepare(`SELECT ${columns} FROM api_tokens WHERE company_id = ? AND revoked_at IS NULL ORDER BY id`);
  const findLive = db.prepare(`SELECT ${columns} FROM api_tokens WHERE id = ? AND company_id = ? AND revoked_at IS NULL`);
  const revoke = db.prepare('UPDATE api_tokens SET revoked_at = @now WHERE id = @id AND revoked_at IS NULL');
  const revokeOfCompany = db.prepare(
    'UPDATE api_tokens SET revoked_at = @now WHERE id = @id AND company_id = @companyId AND revoked_at IS NULL',
  );
  const byId = db.prepare(`SELECT ${columns} FROM api_tokens WHERE id = ?`);
  const setMaxMonitors = db.prepare(
    'UPDATE api_tokens SET max_monitors = @maxMonitors WHERE id = @id AND company_id = @companyId AND revoked_at IS NULL',
  );
  const live = db.prepare('SELECT 1 FROM api_tokens WHERE id = ? AND revoked_at IS NULL').pluck();
  // A dashboard sign-in session is the token a sign-in code was traded for (signInCodes.ts).
  const session = db.prepare('SELECT 1 FROM sign_in_codes WHERE api_token_id = ?').pluck();
  const touch = db.prepare(
    'UPDATE api_tokens SET last_used_at = @now WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @now - 60000)',
  );

  return {
    /** Creates a token and returns its secret, which is never stored and cannot be shown again. */
    create(input: { companyId: number; name: string; scope?: KeyScope; maxMonitors?: number | null; now: number }): { id: number; token: string } {
      const token = PREFIX + randomBytes(32).toString('base64url');
      const hash = hashToken(token).toString('hex');
      const { lastInsertRowid } = insert.run({ scope: 'full', maxMonitors: null, ...input, hash });
      return { id: Number(lastInsertRowid), token };
    },

    /**
     * The live token matching `token` at `now`, or null when it is unknown or revoked, or a sign-in
     * session unused for too long (sessionIdleTooLong), which is revoked then.
     */
    authenticate(token: string, now: number): { id: number; companyId: number; scope: KeyScope } | null {
      const presented = hashToken(token);
      const row = byHash.get(presented.toString('hex')) as
        | (Pick<ApiTokenRow, 'id' | 'company_id' | 'scope' | 'created_at' | 'last_used_at'> & { token_hash: string })
        | undefined;
      if (!row || !timingSafeEqual(presented, Buffer.from(row.token_hash, 'hex'))) return null;
      if (sessionIdleTooLong(row.created_at, row.last_used_at, now) && session.get(row.id) !== undefined) {
        revoke.run({ id: row.id, now });
        return null;
      }
      return { id: row.id, companyId: row.company_id, scope: row.scope };
    },

    /** Whether the token was made by trading a sign-in code (a dashboard session), not by `token create` or the desktop app. */
    isSession(id: number): boolean {
      return session.get(id) !== undefined;
    },

    /** Whether the token with that id is still live (not revoked), whoever revoked it: this agent or another process. */
    isLive(id: number): boolean {
      return live.get(id) !== undefined;
    },

    /** Records when a token was last used, at most once a minute, so most reads write nothing. */
    touch(id: number, now: number): void {
      touch.run({ id, now });
    },

    list(): ApiTokenRow[] {
      return list.all() as ApiTokenRow[];
    },

    /** A company's live keys, oldest first. */
    listLive(companyId: number): ApiTokenRow[] {
      return listLive.all(companyId) as ApiTokenRow[];
    },

    findLive(companyId: number, id: number): ApiTokenRow | null {
      return (findLive.get(id, companyId) as ApiTokenRow | undefined) ?? null;
    },

    /** A key by id, live or revoked (a monitor names the key whose line made it). */
    byId(id: number): ApiTokenRow | null {
      return (byId.get(id) as ApiTokenRow | undefined) ?? null;
    },

    /** Sets how many monitors a live key's lines may make (null: the default); false when the company has no such live key. */
    setMaxMonitors(companyId: number, id: number, maxMonitors: number | null): boolean {
      return setMaxMonitors.run({ id, companyId, maxMonitors }).changes === 1;
    },

    /** Revokes one of a company's live keys; false when it has no such key. */
    revokeOfCompany(companyId: number, id: number, now: number): boolean {
      return revokeOfCompany.run({ id, companyId, now }).changes === 1;
    },

    /** Returns false when there is no live token with that id. */
    revoke(id: number, now: number): boolean {
      return revoke.run({ id, now }).changes === 1;
    },
  };
}
