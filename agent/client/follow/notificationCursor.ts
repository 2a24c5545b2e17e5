/*
 * Which notifications a follower has already shown, so that after a dropped connection it asks
 * the agent for what came since and shows each missed one exactly once. Pure: the follower feeds
 * it pages of GET /api/notifications (newest first) and keeps the cursor it returns.
 */

import type { NotificationResource } from '../../contract/notifications';
import type { CommonNotificationData } from '../../domain/alerts/notificationKinds';

/** The fields of a notification (spec 2.3) the follower reads. */
export type FollowedNotification = Pick<NotificationResource, 'id' | 'type' | 'created_at'> & {
  data: Pick<CommonNotificationData, 'type' | 'type_id' | 'title' | 'description'>;
};

export interface NotificationCursor {
  /**
   * created_at of the newest notification seen (API timestamps sort as text); '' when the first
   * look found none (so every later one is new); null before the first look.
   */
  newestAt: string | null;
  /** Ids of the latest notifications seen, so one created in the same microsecond is told apart. */
  recentIds: string[];
}

/** How many ids the cursor keeps: far more than can share one timestamp. */
const RECENT_IDS = 200;

export const EMPTY_CURSOR: NotificationCursor = { newestAt: null, recentIds: [] };

/**
 * The notifications on one page (newest first) that the cursor has not seen, and whether the page
 * reaches back to ones it has (so older pages need not be read). Before the first look
 * (`newestAt` null) nothing is fresh: a follower starts with what happens from then on.
 */
export function freshOnPage(cursor: NotificationCursor, page: FollowedNotification[]): { fresh: FollowedNotification[]; reachedSeen: boolean } {
  if (cursor.newestAt === null) return { fresh: [], reachedSeen: true };
  const newestAt = cursor.newestAt;
  const seen = new Set(cursor.recentIds);
  const fresh = page.filter((n) => n.created_at >= newestAt && !seen.has(n.id));
  return { fresh, reachedSeen: page.some((n) => n.created_at < newestAt) };
}

/** The cursor after a first look at the newest page: what is on it counts as seen. */
export function startCursor(newestPage: FollowedNotification[]): NotificationCursor {
  return advanceCursor({ newestAt: '', recentIds: [] }, newestPage);
}

/** The cursor after `shown` (any order) were shown. */
export function advanceCursor(cursor: NotificationCursor, shown: FollowedNotification[]): NotificationCursor {
  if (shown.length === 0) return cursor;
  const byAge = [...shown].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  const newestAt = byAge[byAge.length - 1].created_at;
  const recentIds = [...cursor.recentIds, ...byAge.map((n) => n.id)].slice(-RECENT_IDS);
  return { newestAt: cursor.newestAt !== null && cursor.newestAt > newestAt ? cursor.newestAt : newestAt, recentIds };
}

/** Oldest first, the order they happened in (the API lists newest first). */
export function inOrderOfEvents(notifications: FollowedNotification[]): FollowedNotification[] {
  return [...notifications].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
}
