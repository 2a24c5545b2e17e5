import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './open';

/*
 * One-time sign-in codes for the dashboard (table from migration 4). A code is stored only as
 * its SHA-256 hash; `api_token_id` records the session token it was traded for, so signing out
 * revokes that token and never an API token the user pasted.
 */

/** How long a printed sign-in link works. */
export const SIGN_IN_CODE_TTL_MS = 15 * 60_000;

function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** 128 random bits, URL-safe. */
export function newSignInCode(): string {
  return randomBytes(16).toString('base64url');
}

export function signInCodeRepository(db: Db) {
  const insert = db.prepare(
    'INSERT INTO sign_in_codes (company_id, code_hash, created_at, expires_at) VALUES (@companyId, @hash, @now, @expiresAt)',
  );
  const pruneStale = db.prepare('DELETE FROM sign_in_codes WHERE used_at IS NULL AND expires_at < @now');
  const findLive = db.prepare(
    'SELECT id, company_id FROM sign_in_codes WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?',
  );
  const findUsed = db.prepare('SELECT used_at, api_token_id FROM sign_in_codes WHERE code_hash = ? AND used_at IS NOT NULL');
  const markUsed = db.prepare(
    'UPDATE sign_in_codes SET used_at = @now, api_token_id = @tokenId WHERE id = @id AND used_at IS NULL',
  );

  return {
    /** Stores a new code for `companyId` (by default 128 random bits, URL-safe), valid for SIGN_IN_CODE_TTL_MS. */
    create(companyId: number, now: number, code = newSignInCode()): string {
      db.transaction(() => {
        pruneStale.run({ now });
        insert.run({ companyId, hash: hashCode(code), now, expiresAt: now + SIGN_IN_CODE_TTL_MS });
      })();
      return code;
    },

    /**
     * Spends a code: calls `issueToken` for its company and records the token, all in one
     * transaction so a code is traded at most once. Null when the code is unknown, expired or used.
     */
    redeem<T extends { id: number }>(code: string, now: number, issueToken: (companyId: number) => T): T | null {
      return db.transaction(() => {
        const row = findLive.get(hashCode(code), now) as { id: number; company_id: number } | undefined;
        if (!row) return null;
        const token = issueToken(row.company_id);
        if (markUsed.run({ id: row.id, now, tokenId: token.id }).changes !== 1) throw new Error('sign-in code raced');
        return token;
      })();
    },

    /** When a used code was traded and for which key; null for a code never traded (unknown, or expired unused). */
    usedAs(code: string): { usedAt: number; tokenId: number | null } | null {
      const row = findUsed.get(hashCode(code)) as { used_at: number; api_token_id: number | null } | undefined;
      return row ? { usedAt: row.used_at, tokenId: row.api_token_id } : null;
    },
  };
}

export type SignInCodeRepository = ReturnType<typeof signInCodeRepository>;
