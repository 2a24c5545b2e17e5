import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/*
 * A key is revoked, and a monitor's pulse token rotated, because it leaked. A backup taken before
 * that still holds the secret as live, so restoring it would arm the leak again without a word.
 * What the database being replaced undid is carried into the copy about to become the database.
 */

/** What was carried over, or why nothing could be (the database replaced is unreadable). */
export type CarriedOver = { revokedKeys: number; rotatedTokens: number } | { unreadable: string };

interface CurrentSecrets {
  revoked: { token_hash: string; revoked_at: number }[];
  monitors: { id: number; company_id: number; created_at: number; updated_at: number; token: string }[];
}

function readCurrent(file: string): CurrentSecrets {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      revoked: db.prepare('SELECT token_hash, revoked_at FROM api_tokens WHERE revoked_at IS NOT NULL').all() as CurrentSecrets['revoked'],
      monitors: db.prepare('SELECT id, company_id, created_at, updated_at, token FROM monitors WHERE deleted_at IS NULL').all() as CurrentSecrets['monitors'],
    };
  } finally {
    db.close();
  }
}

/**
 * Revokes in `copy` every key `current` has revoked, and gives each monitor (the same one: id,
 * company and creation time) the token `current` gave it after the backup's last change to it:
 * that is the token the jobs' lines were changed to. Null when there is no `current`.
 */
export function carryOverUndoneSecrets(current: string, copy: string): CarriedOver | null {
  if (!existsSync(current)) return null;
  let secrets: CurrentSecrets;
  try {
    secrets = readCurrent(current);
  } catch (error) {
    return { unreadable: (error as { code?: string }).code ?? 'unreadable' };
  }
  const db = new Database(copy, { fileMustExist: true });
  try {
    const revoke = db.prepare('UPDATE api_tokens SET revoked_at = @revoked_at WHERE token_hash = @token_hash AND revoked_at IS NULL');
    const retoken = db.prepare(
      `UPDATE monitors SET token = @token WHERE id = @id AND company_id = @company_id AND created_at = @created_at
         AND updated_at < @updated_at AND token != @token AND deleted_at IS NULL`,
    );
    return db.transaction(() => ({
      revokedKeys: secrets.revoked.reduce((sum, row) => sum + revoke.run(row).changes, 0),
      rotatedTokens: secrets.monitors.reduce((sum, row) => sum + retoken.run(row).changes, 0),
    }))();
  } finally {
    db.close();
  }
}

/** What carryOverUndoneSecrets did, in a sentence for the admin; null when there is nothing to say. */
export function carriedOverWords(carried: CarriedOver | null): string | null {
  if (carried === null) return null;
  if ('unreadable' in carried) {
    return (
      `The database it replaced could not be read (${carried.unreadable}): keys revoked and pulse tokens rotated since the backup, if any, are live again; ` +
      'revoke them with `cronbeat token revoke ID` and `cronbeat monitor rotate-token NAME`.'
    );
  }
  const said = [
    carried.revokedKeys === 1 ? '1 key revoked since the backup stays revoked' : '',
    carried.revokedKeys > 1 ? `${carried.revokedKeys} keys revoked since the backup stay revoked` : '',
    carried.rotatedTokens === 1 ? "1 monitor keeps the pulse token it was given since (the backup's is refused)" : '',
    carried.rotatedTokens > 1 ? `${carried.rotatedTokens} monitors keep the pulse tokens they were given since (the backup's are refused)` : '',
  ].filter(Boolean);
  return said.length ? `Kept from the database it replaced: ${said.join('; ')}.` : null;
}
