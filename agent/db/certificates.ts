import type { Db } from './open';
import type { CertificateResource } from '../contract/certificates';
import type { Stored } from '../contract/stored';
import type { CertificateStatus } from '../domain/certificates/status';

/** A certificates row: the API's certificate (agent/contract/certificates.ts) and the scheduler's state. */
export interface CertificateRow
  extends Stored<CertificateResource, 'expires_at' | 'valid_from' | 'last_checked_at' | 'created_at' | 'updated_at' | 'deleted_at'> {
  /** The smallest expiry reminder (7 or 1 days) already sent for the current certificate. */
  reminder_days: number | null;
  /** When the scheduler checks next; indexed. */
  next_check_at: number;
  /** What the channels were last told while a maintenance window holds news of it (JSON, migration 35); null when nothing is held. */
  held: string | null;
}

export interface NewCertificate {
  companyId: number;
  hostname: string;
  port: number;
  warnDays: number;
  now: number;
}

/** Everything one check writes. Certificate fields carry the last certificate seen. */
export interface CheckResult {
  id: number;
  status: CertificateStatus;
  expiresAt: number | null;
  validFrom: number | null;
  issuer: string | null;
  subject: string | null;
  fingerprintSha256: string | null;
  lastError: string | null;
  reminderDays: number | null;
  now: number;
  nextCheckAt: number;
  /** What was last told, kept while a maintenance window holds the news; null (or absent) once told. */
  held?: string | null;
}

const LIVE = 'deleted_at IS NULL';

/** TLS certificates watched for a company; deleted ones are kept (soft delete) but never listed, found or checked. */
export function certificateRepository(db: Db) {
  const list = db.prepare(`SELECT * FROM ssl_certificates WHERE company_id = ? AND ${LIVE} ORDER BY id`);
  const find = db.prepare(`SELECT * FROM ssl_certificates WHERE id = ? AND company_id = ? AND ${LIVE}`);
  const findLive = db.prepare(`SELECT * FROM ssl_certificates WHERE id = ? AND ${LIVE}`);
  const findByAddress = db.prepare(
    `SELECT * FROM ssl_certificates WHERE company_id = ? AND hostname = ? AND port = ? AND ${LIVE}`,
  );
  // A check planned later than `latest` was planned by a clock that ran ahead (set back since): due now.
  const due = db.prepare(
    `SELECT id FROM ssl_certificates WHERE (next_check_at <= @now OR next_check_at > @latest) AND ${LIVE} ORDER BY next_check_at LIMIT @limit`,
  ).pluck();
  const insert = db.prepare(
    `INSERT INTO ssl_certificates (company_id, hostname, port, warn_days, next_check_at, created_at, updated_at)
     VALUES (@companyId, @hostname, @port, @warnDays, @now, @now, @now)`,
  );
  const record = db.prepare(
    `UPDATE ssl_certificates SET status = @status, expires_at = @expiresAt, valid_from = @validFrom, issuer = @issuer,
       subject = @subject, fingerprint_sha256 = @fingerprintSha256, last_checked_at = @now, last_error = @lastError,
       reminder_days = @reminderDays, next_check_at = @nextCheckAt, held = @held, updated_at = @now
     WHERE id = @id AND ${LIVE}`,
  );
  const postpone = db.prepare(`UPDATE ssl_certificates SET next_check_at = ? WHERE id = ? AND ${LIVE}`);
  const recheckHeld = db.prepare(
    `UPDATE ssl_certificates SET next_check_at = min(next_check_at, @now) WHERE company_id = @companyId AND held IS NOT NULL AND ${LIVE}`,
  );
  const softDelete = db.prepare(
    `UPDATE ssl_certificates SET deleted_at = @now, updated_at = @now WHERE id = @id AND company_id = @companyId AND ${LIVE}`,
  );

  return {
    list(companyId: number): CertificateRow[] {
      return list.all(companyId) as CertificateRow[];
    },
    find(companyId: number, id: number): CertificateRow | null {
      return (find.get(id, companyId) as CertificateRow | undefined) ?? null;
    },
    /** Any company's live certificate: for the scheduler, which works for all of them. */
    findLive(id: number): CertificateRow | null {
      return (findLive.get(id) as CertificateRow | undefined) ?? null;
    },
    findByAddress(companyId: number, hostname: string, port: number): CertificateRow | null {
      return (findByAddress.get(companyId, hostname, port) as CertificateRow | undefined) ?? null;
    },
    /**
     * Ids of live certificates whose next check is due at `now`, most overdue first; also those
     * planned after `latest` (now plus the check interval, which no check plans beyond).
     */
    due(now: number, limit: number, latest: number): number[] {
      return due.all({ now, limit, latest }) as number[];
    },
    /** New certificates are due at once and `pending` until their first check. */
    create(input: NewCertificate): CertificateRow {
      const { lastInsertRowid } = insert.run(input);
      return find.get(lastInsertRowid, input.companyId) as CertificateRow;
    },
    /** Returns false when the certificate was deleted meanwhile (the result is dropped). */
    recordCheck(result: CheckResult): boolean {
      return record.run({ ...result, held: result.held ?? null }).changes === 1;
    },
    /** Moves the next check without recording anything (a failure waiting to be confirmed). */
    postpone(id: number, nextCheckAt: number): void {
      postpone.run(nextCheckAt, id);
    },
    /** Checks at once the company's certificates whose news a window holds (a window ended early, or moved): said then, if still news. */
    recheckHeld(companyId: number, now: number): number {
      return recheckHeld.run({ companyId, now }).changes;
    },
    /** Returns false when there was no such live certificate. */
    delete(companyId: number, id: number, now: number): boolean {
      return softDelete.run({ id, companyId, now }).changes === 1;
    },
  };
}

export type CertificateRepository = ReturnType<typeof certificateRepository>;
