import type { Db } from './open';

/**
 * A digest its receiver refused for its size (agent/engine/delivery/digests.ts): the newer half of
 * its alerts is given back. Part of the deliveries repository.
 */
export function digestSplit(db: Db) {
  // Over deliveries_folded.
  const members = db.prepare(`SELECT count(*) FROM deliveries WHERE folded_into = @leadId AND id != @leadId AND status = 'pending'`).pluck();
  const unfold = db.prepare(
    `UPDATE deliveries SET folded_into = NULL, next_attempt_at = @now
     WHERE id IN (SELECT id FROM deliveries WHERE folded_into = @leadId AND id != @leadId AND status = 'pending' ORDER BY id DESC LIMIT @count)`,
  );
  return {
    /**
     * The newer half of the alerts of the digest led by `leadId` (the lead itself counted) are fresh
     * alerts again, due at `now`: they make the next digest. Returns how many; 0 for a digest of one.
     */
    halveDigest(leadId: number, now: number): number {
      const count = Math.floor(((members.get({ leadId }) as number) + 1) / 2);
      return count === 0 ? 0 : unfold.run({ leadId, now, count }).changes;
    },
  };
}
