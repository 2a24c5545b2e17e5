import type { Db } from './open';
import type { HistoryKind } from '../domain/monitors/pulseEffect';
import type { PulseGist } from '../domain/monitors/pulseInput';

/** How many pulses each monitor keeps; older ones are dropped as new ones come. */
export const PULSES_KEPT_PER_MONITOR = 1000;

export interface PulseRow {
  id: number;
  monitor_id: number;
  kind: HistoryKind;
  exit_code: number | null;
  rid: string | null;
  /** When the pulse counts for: its arrival, or the original send time of a replayed one. */
  received_at: number;
  /** From the start it ends to its own time; null when it ends no start. */
  duration_ms: number | null;
  method: string;
  remote_address: string;
  body: string;
  body_truncated: number;
  /** The client's Idempotency-Key; null when it sent none. */
  idempotency_key: string | null;
  /** A snooze's end, on its `pause` line; null on every other line. */
  paused_until: number | null;
}

export interface NewPulse {
  monitorId: number;
  kind: HistoryKind;
  exitCode: number | null;
  rid: string | null;
  receivedAt: number;
  durationMs: number | null;
  method: string;
  remoteAddress: string;
  body: string;
  bodyTruncated: boolean;
  idempotencyKey: string | null;
  /** A snooze's end, on its `pause` line; absent (null) on every other line. */
  pausedUntil?: number | null;
  /** The monitor's pulses_kept before this line, read in the same transaction as its UPDATE that counts the line (COUNT_KEPT_SQL). */
  keptBefore: number;
}

/**
 * The monitor's UPDATE that goes with a new line of its history counts the line, capped at what
 * is kept: one UPDATE of the monitor row per pulse instead of two (its own, and one to count).
 */
export const COUNT_KEPT_SQL = `pulses_kept = min(pulses_kept + 1, ${PULSES_KEPT_PER_MONITOR})`;

/** The run history: pulses per monitor, newest first, the newest PULSES_KEPT_PER_MONITOR kept. */
export function pulseRepository(db: Db) {
  // Parameters by position, in the order of the columns: binding them by name looks each one up
  // in an object, which for a statement every pulse runs cost more than SQLite's own work.
  const insert = db.prepare(
    `INSERT INTO pulses (monitor_id, kind, exit_code, rid, received_at, duration_ms, method, remote_address, body,
                         body_truncated, idempotency_key, paused_until)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // monitors.pulses_kept counts each monitor's pulses, so a new pulse deletes the oldest one
  // (a step from the end of the index) instead of walking its 1,000 newest to find what is past them.
  const dropOldest = db.prepare(
    `DELETE FROM pulses WHERE id IN (
       SELECT id FROM pulses WHERE monitor_id = @monitorId ORDER BY received_at ASC, id ASC LIMIT @excess)`,
  );
  const startWithRid = db.prepare(
    `SELECT received_at FROM pulses WHERE monitor_id = @monitorId AND rid = @rid AND kind = 'start'
       AND received_at <= @before
     ORDER BY received_at DESC LIMIT 1`,
  ).pluck();
  // Positional: the run in progress's start, the rid of the end being stored, the rid of the run in progress.
  const openStartSince = db.prepare(
    `SELECT received_at AS at, rid FROM pulses s WHERE monitor_id = ? AND kind = 'start' AND rid IS NOT NULL
       AND received_at >= ? AND rid IS NOT ? AND rid IS NOT ?
       AND NOT EXISTS (SELECT 1 FROM pulses e WHERE e.monitor_id = s.monitor_id AND e.rid = s.rid
                         AND e.kind IN ('success', 'fail') AND e.received_at >= s.received_at)
     ORDER BY received_at ASC, id ASC LIMIT 1`,
  );
  const withKey = db.prepare(
    'SELECT kind, exit_code AS exitCode, rid FROM pulses WHERE monitor_id = @monitorId AND idempotency_key = @key',
  );
  const count = db.prepare('SELECT count(*) FROM pulses WHERE monitor_id = ?').pluck();
  const page = db.prepare(
    `SELECT * FROM pulses WHERE monitor_id = @monitorId
     ORDER BY received_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  );

  return {
    /**
     * Stores a pulse and drops what falls beyond the newest PULSES_KEPT_PER_MONITOR of its monitor;
     * the caller's UPDATE of the monitor counts it (COUNT_KEPT_SQL), in the same transaction.
     */
    add(pulse: NewPulse): number {
      const { lastInsertRowid } = insert.run(
        pulse.monitorId,
        pulse.kind,
        pulse.exitCode,
        pulse.rid,
        pulse.receivedAt,
        pulse.durationMs,
        pulse.method,
        pulse.remoteAddress,
        pulse.body,
        pulse.bodyTruncated ? 1 : 0,
        pulse.idempotencyKey,
        pulse.pausedUntil ?? null,
      );
      const excess = pulse.keptBefore + 1 - PULSES_KEPT_PER_MONITOR;
      if (excess > 0) dropOldest.run({ monitorId: pulse.monitorId, excess });
      return Number(lastInsertRowid);
    },
    /** When the latest start with this rid, at or before `before`, was received; null when none is kept. */
    startTimeOf(monitorId: number, rid: string, before: number): number | null {
      return (startWithRid.get({ monitorId, rid, before }) as number | undefined) ?? null;
    },
    /**
     * The oldest start since `since` (inclusive) whose run has not ended, other than the runs of
     * the rids given (the one ending now, the one in progress); null when none is kept.
     */
    openStartSince(monitorId: number, since: number, endingRid: string | null, runningRid: string | null): { at: number; rid: string } | null {
      return (openStartSince.get(monitorId, since, endingRid, runningRid) as { at: number; rid: string } | undefined) ?? null;
    },
    /** The pulse stored under this idempotency key for the monitor, if one is kept (one index lookup). */
    withKey(monitorId: number, key: string): PulseGist | undefined {
      return withKey.get({ monitorId, key }) as PulseGist | undefined;
    },
    count(monitorId: number): number {
      return count.get(monitorId) as number;
    },
    page(monitorId: number, limit: number, offset: number): PulseRow[] {
      return page.all({ monitorId, limit, offset }) as PulseRow[];
    },
  };
}
