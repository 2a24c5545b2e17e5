import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { terminalText } from '../domain/text/controlCharacters';

/*
 * A key is revoked, and a monitor's pulse token rotated, because it leaked. A backup taken before
 * that still holds the secret as live, so restoring it would arm the leak again without a word.
 * What the database being replaced undid is carried into the copy about to become the database.
 */

/**
 * What was carried over, and what the database replaced has that the backup lacks (made since it,
 * so kept only in the database set aside); or why nothing could be said (the database replaced is unreadable).
 */
export type CarriedOver =
  | { revokedKeys: number; rotatedTokens: number; missingMonitors: string[]; missingKeys: { id: number; name: string }[] }
  | { unreadable: string };

interface CurrentSecrets {
  revoked: { token_hash: string; revoked_at: number }[];
  liveKeys: { id: number; name: string; token_hash: string }[];
  monitors: { id: number; company_id: number; name: string; created_at: number; updated_at: number; token: string }[];
  usedCodes: { code_hash: string; used_at: number }[];
}

const hasTable = (db: Database.Database, name: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

function readCurrent(file: string): CurrentSecrets {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      revoked: db.prepare('SELECT token_hash, revoked_at FROM api_tokens WHERE revoked_at IS NOT NULL').all() as CurrentSecrets['revoked'],
      liveKeys: db.prepare('SELECT id, name, token_hash FROM api_tokens WHERE revoked_at IS NULL ORDER BY id').all() as CurrentSecrets['liveKeys'],
      monitors: db
        .prepare('SELECT id, company_id, name, created_at, updated_at, token FROM monitors WHERE deleted_at IS NULL ORDER BY id')
        .all() as CurrentSecrets['monitors'],
      // A sign-in link works for 15 minutes: one used since the backup, in a log or a browser's history, must not work again.
      usedCodes: hasTable(db, 'sign_in_codes')
        ? (db.prepare('SELECT code_hash, used_at FROM sign_in_codes WHERE used_at IS NOT NULL').all() as CurrentSecrets['usedCodes'])
        : [],
    };
  } finally {
    db.close();
  }
}

/**
 * Revokes in `copy` every key `current` has revoked, spends every sign-in code it spent, and gives each monitor (the same one: id,
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
         AND updated_at < @updated_at AND deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM monitors WHERE token = @token)`,
    );
    const hasKey = db.prepare('SELECT 1 FROM api_tokens WHERE token_hash = ?');
    const hasMonitor = db.prepare('SELECT 1 FROM monitors WHERE id = @id AND company_id = @company_id AND created_at = @created_at');
    const spend = hasTable(db, 'sign_in_codes')
      ? db.prepare('UPDATE sign_in_codes SET used_at = @used_at WHERE code_hash = @code_hash AND used_at IS NULL')
      : null;
    return db.transaction(() => {
      for (const row of secrets.usedCodes) spend?.run(row);
      return {
        revokedKeys: secrets.revoked.reduce((sum, row) => sum + revoke.run(row).changes, 0),
        rotatedTokens: secrets.monitors.reduce((sum, row) => sum + retoken.run(row).changes, 0),
        missingMonitors: secrets.monitors.filter((row) => hasMonitor.get(row) === undefined).map((row) => row.name),
        missingKeys: secrets.liveKeys.filter((row) => hasKey.get(row.token_hash) === undefined).map(({ id, name }) => ({ id, name })),
      };
    })();
  } finally {
    db.close();
  }
}

const quoted = (name: string) => `"${terminalText(name, { oneLine: true })}"`;

/** The first ten of `items` joined, and how many more: a restore over years of monitors stays one readable line. */
function firstTen(items: string[], separator: string): string {
  const shown = items.slice(0, 10).join(separator);
  return items.length > 10 ? `${shown}${separator}and ${items.length - 10} more` : shown;
}

/** What carryOverUndoneSecrets did and found, in sentences for the admin (`keptAs`: the database set aside). */
export function carriedOverWords(carried: CarriedOver | null, keptAs: string | null): string[] {
  if (carried === null) return [];
  if ('unreadable' in carried) {
    return [
      `The database it replaced could not be read (${carried.unreadable}): keys revoked and pulse tokens rotated since the backup, if any, are live again; ` +
        'revoke them with `cronbeat token revoke ID` and `cronbeat monitor rotate-token NAME`.',
    ];
  }
  const lines: string[] = [];
  const { missingMonitors: monitors, missingKeys: keys } = carried;
  const missing = [
    monitors.length ? `${monitors.length} ${monitors.length === 1 ? 'monitor' : 'monitors'} made since (${firstTen(monitors.map(quoted), ', ')})` : '',
    keys.length ? `${keys.length} ${keys.length === 1 ? 'key' : 'keys'} made since (${firstTen(keys.map((key) => `${quoted(key.name)}, id ${key.id}`), '; ')})` : '',
  ].filter(Boolean);
  if (missing.length) lines.push(`Not in the backup, so only in ${keptAs}: ${missing.join('; ')}.`);
  const said = [
    carried.revokedKeys === 1 ? '1 key revoked since the backup stays revoked' : '',
    carried.revokedKeys > 1 ? `${carried.revokedKeys} keys revoked since the backup stay revoked` : '',
    carried.rotatedTokens === 1 ? "1 monitor keeps the pulse token it was given since (the backup's is refused)" : '',
    carried.rotatedTokens > 1 ? `${carried.rotatedTokens} monitors keep the pulse tokens they were given since (the backup's are refused)` : '',
  ].filter(Boolean);
  if (said.length) lines.push(`Kept from the database it replaced: ${said.join('; ')}.`);
  return lines;
}
