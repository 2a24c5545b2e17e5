import type { Db } from './open';
import type { SubjectType } from '../domain/channels/routing';

/*
 * Which channels a monitor, certificate or server alerts. No row: all of the company's
 * channels. A row: exactly its list (possibly empty). failure_routes remembers where a subject's
 * last failure went, so its recovery goes to the same channels.
 */

export interface Subject {
  type: SubjectType;
  id: number;
}

export function channelRoutesRepository(db: Db) {
  const get = db.prepare('SELECT company_id, channel_ids FROM alert_routes WHERE subject_type = ? AND subject_id = ?');
  const set = db.prepare(
    `INSERT INTO alert_routes (subject_type, subject_id, company_id, channel_ids) VALUES (@type, @id, @companyId, @channelIds)
     ON CONFLICT (subject_type, subject_id) DO UPDATE SET channel_ids = excluded.channel_ids`,
  );
  const ofType = db.prepare('SELECT subject_id, channel_ids FROM alert_routes WHERE company_id = ? AND subject_type = ?');
  const clear = db.prepare('DELETE FROM alert_routes WHERE subject_type = ? AND subject_id = ?');
  const liveChannel = db.prepare('SELECT 1 FROM channels WHERE id = ? AND company_id = ? AND deleted_at IS NULL').pluck();
  const liveChannelIds = db.prepare('SELECT id FROM channels WHERE company_id = ? AND deleted_at IS NULL').pluck();
  /*
   * A list is read without the channels deleted since it was saved: they alert nobody, and a
   * client that sends back the list it read (the dashboard's picker, with one more ticked) would
   * be refused for a channel it cannot see. A list of deleted channels alone reads [], which
   * alerts the same (the desktop only).
   */
  const withoutDeleted = (live: Set<number>, stored: string): number[] => (JSON.parse(stored) as number[]).filter((id) => live.has(id));
  const liveOf = (companyId: number) => new Set(liveChannelIds.all(companyId) as number[]);
  const getFailure = db.prepare('SELECT channel_ids FROM failure_routes WHERE subject_type = ? AND subject_id = ?').pluck();
  const setFailure = db.prepare(
    `INSERT INTO failure_routes (subject_type, subject_id, channel_ids) VALUES (@type, @id, @channelIds)
     ON CONFLICT (subject_type, subject_id) DO UPDATE SET channel_ids = excluded.channel_ids`,
  );
  const clearFailure = db.prepare('DELETE FROM failure_routes WHERE subject_type = ? AND subject_id = ?');

  return {
    /** The subject's own channel list, or null when it alerts all channels. */
    channelIds(subject: Subject): number[] | null {
      const stored = get.get(subject.type, subject.id) as { company_id: number; channel_ids: string } | undefined;
      return stored === undefined ? null : withoutDeleted(liveOf(stored.company_id), stored.channel_ids);
    },
    /** Every own list of the company's subjects of `type`, by subject id (one query for a whole listing). */
    channelIdsOfType(companyId: number, type: Subject['type']): Map<number, number[]> {
      const rows = ofType.all(companyId, type) as Array<{ subject_id: number; channel_ids: string }>;
      if (rows.length === 0) return new Map();
      const live = liveOf(companyId);
      return new Map(rows.map((row) => [row.subject_id, withoutDeleted(live, row.channel_ids)]));
    },
    /** Sets the subject's own list; null goes back to all channels. */
    setChannelIds(companyId: number, subject: Subject, channelIds: number[] | null): void {
      if (channelIds === null) clear.run(subject.type, subject.id);
      else set.run({ ...subject, companyId, channelIds: JSON.stringify(channelIds) });
    },
    /** The ids that are not live channels of the company (an empty list when all are). */
    unknownChannelIds(companyId: number, channelIds: number[]): number[] {
      return channelIds.filter((id) => !liveChannel.get(id, companyId));
    },
    /** Remembers where the subject's failure went; its recovery reads it back once (takeFailureRoute). */
    rememberFailureRoute(subject: Subject, channelIds: number[]): void {
      setFailure.run({ ...subject, channelIds: JSON.stringify(channelIds) });
    },
    /** Where the subject's failure went, not forgotten: a failure told again adds to it (deliveryRouting). */
    failureRoute(subject: Subject): number[] | null {
      const stored = getFailure.get(subject.type, subject.id) as string | undefined;
      return stored === undefined ? null : (JSON.parse(stored) as number[]);
    },
    /** Where the subject's last failure went, forgotten as it is read; null when none is remembered. */
    takeFailureRoute(subject: Subject): number[] | null {
      const stored = getFailure.get(subject.type, subject.id) as string | undefined;
      if (stored === undefined) return null;
      clearFailure.run(subject.type, subject.id);
      return JSON.parse(stored) as number[];
    },
  };
}
