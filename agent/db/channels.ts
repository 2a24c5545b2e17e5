import type { Db } from './open';
import type { ChannelResource } from '../contract/channels';
import type { Stored } from '../contract/stored';
import type { ChannelKind } from '../contract/channels';
import type { QuietHours } from '../domain/channels/delivery';

/**
 * A channels row, settings (secrets included) and quiet hours decoded: the API's channel
 * (agent/contract/channels/; `failing_since` is since when every attempt failed, null once one
 * succeeds) and what stays inside.
 */
export interface ChannelRow extends Stored<ChannelResource, 'failing_since' | 'created_at' | 'updated_at'> {
  /** When the "channel failing for an hour" popup was shown for the current failing stretch. */
  failure_popup_at: number | null;
  deleted_at: number | null;
}

type StoredRow = Omit<ChannelRow, 'settings' | 'quiet_hours'> & { settings: string; quiet_hours: string | null };

function decode(row: StoredRow | undefined): ChannelRow | null {
  if (!row) return null;
  return {
    ...row,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    quiet_hours: row.quiet_hours ? (JSON.parse(row.quiet_hours) as QuietHours) : null,
  };
}

export interface ChannelFields {
  name: string;
  settings: Record<string, unknown>;
  quietHours: QuietHours | null;
  /** Absent: none (off). */
  remindEveryHours?: number | null;
}

/** Notification channels of a company; deleted ones are kept (their deliveries name them) but never listed. */
export function channelRepository(db: Db) {
  const list = db.prepare('SELECT * FROM channels WHERE company_id = ? AND deleted_at IS NULL ORDER BY id');
  const liveIds = db.prepare('SELECT id FROM channels WHERE company_id = ? AND deleted_at IS NULL ORDER BY id').pluck();
  const find = db.prepare('SELECT * FROM channels WHERE id = ? AND company_id = ? AND deleted_at IS NULL');
  const findAny = db.prepare('SELECT * FROM channels WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO channels (company_id, name, kind, settings, quiet_hours, remind_every_hours, created_at, updated_at)
     VALUES (@companyId, @name, @kind, @settings, @quietHours, @remindEveryHours, @now, @now)`,
  );
  const update = db.prepare(
    `UPDATE channels SET name = @name, settings = @settings, quiet_hours = @quietHours,
       remind_every_hours = @remindEveryHours, updated_at = @now
     WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL`,
  );
  const softDelete = db.prepare(
    'UPDATE channels SET deleted_at = @now, updated_at = @now WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL',
  );
  const markFailing = db.prepare('UPDATE channels SET failing_since = @now WHERE id = @id AND failing_since IS NULL');
  const markWorking = db.prepare(
    'UPDATE channels SET failing_since = NULL, failure_popup_at = NULL WHERE id = @id AND failing_since IS NOT NULL',
  );
  const claimFailurePopup = db.prepare(
    'UPDATE channels SET failure_popup_at = @now WHERE id = @id AND failing_since IS NOT NULL AND failure_popup_at IS NULL',
  );

  // Every notification asks for its company's channels; they change only through create and
  // delete below (one agent per database), so the answer is kept until then.
  const liveIdsKnown = new Map<number, number[]>();
  const encode = (fields: ChannelFields) => ({
    name: fields.name,
    settings: JSON.stringify(fields.settings),
    quietHours: fields.quietHours ? JSON.stringify(fields.quietHours) : null,
    remindEveryHours: fields.remindEveryHours ?? null,
  });

  return {
    list(companyId: number): ChannelRow[] {
      return (list.all(companyId) as StoredRow[]).map((row) => decode(row) as ChannelRow);
    },
    liveIds(companyId: number): number[] {
      let ids = liveIdsKnown.get(companyId);
      if (!ids) liveIdsKnown.set(companyId, (ids = liveIds.all(companyId) as number[]));
      return ids;
    },
    find(companyId: number, id: number): ChannelRow | null {
      return decode(find.get(id, companyId) as StoredRow | undefined);
    },
    /** The channel even when deleted (the worker finishes nothing for deleted channels, but names them). */
    findAny(id: number): ChannelRow | null {
      return decode(findAny.get(id) as StoredRow | undefined);
    },
    create(input: ChannelFields & { companyId: number; kind: ChannelKind; now: number }): ChannelRow {
      const { lastInsertRowid } = insert.run({ ...encode(input), companyId: input.companyId, kind: input.kind, now: input.now });
      liveIdsKnown.delete(input.companyId);
      return decode(find.get(lastInsertRowid, input.companyId) as StoredRow) as ChannelRow;
    },
    update(companyId: number, id: number, fields: ChannelFields, now: number): ChannelRow | null {
      update.run({ ...encode(fields), id, companyId, now });
      return decode(find.get(id, companyId) as StoredRow | undefined);
    },
    /** Returns false when there was no such live channel. */
    delete(companyId: number, id: number, now: number): boolean {
      liveIdsKnown.delete(companyId);
      return softDelete.run({ id, companyId, now }).changes === 1;
    },
    /** An attempt failed at `now`: the channel is failing since then, unless it already was. */
    markFailing(id: number, now: number): void {
      markFailing.run({ id, now });
    },
    /** An attempt succeeded: the channel works again, and a later failing stretch may raise a popup again. */
    markWorking(id: number): void {
      markWorking.run({ id });
    },
    /** True only for the one call that records the failure popup of the current failing stretch. */
    claimFailurePopup(id: number, now: number): boolean {
      return claimFailurePopup.run({ id, now }).changes === 1;
    },
  };
}
