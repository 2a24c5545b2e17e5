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
 * (`newestAt` null) nothing is fresh: a follower starts with what happens from then on. One the
 * live stream announced (`announced`, by id) and not seen is fresh whatever its time: the agent's
 * clock may have been set back since the newest one seen was stamped (cursorAtAgentClock).
 */
export function freshOnPage(
  cursor: NotificationCursor,
  page: FollowedNotification[],
  announced: ReadonlySet<string> = new Set(),
): { fresh: FollowedNotification[]; reachedSeen: boolean } {
  if (cursor.newestAt === null) return { fresh: [], reachedSeen: true };
  const newestAt = cursor.newestAt;
  const seen = new Set(cursor.recentIds);
  const fresh = page.filter((n) => (n.created_at >= newestAt || announced.has(n.id)) && !seen.has(n.id));
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

/** A newest notification seen this much later than the agent's clock means that clock was set back. */
const AHEAD_OF_AGENT_MS = 2_000;
/** How far before the agent's clock a cursor brought back starts: its recent ids still tell the ones shown. */
const BACK_MARGIN_MS = 60_000;

/** An instant as the API writes it (sortable as text against created_at). */
const apiTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 23)}000Z`;

/**
 * The cursor as the agent's clock, reading `agentNow` (its answer's Date), can use it. A newest
 * notification seen later than that was stamped before the agent's clock was set back (NTP
 * correcting a clock that ran ahead): every notification made since is stamped earlier, and none
 * would ever be new until the clock got there again. The cursor then starts a minute before the
 * agent's now. Unchanged otherwise, or when the agent's time is not known.
 */
export function cursorAtAgentClock(cursor: NotificationCursor, agentNow: number | null): NotificationCursor {
  if (!cursor.newestAt || agentNow === null) return cursor;
  const newest = Date.parse(cursor.newestAt);
  if (!(newest > agentNow + AHEAD_OF_AGENT_MS)) return cursor;
  return { ...cursor, newestAt: apiTime(agentNow - BACK_MARGIN_MS) };
}

/** Oldest first, the order they happened in (the API lists newest first). */
export function inOrderOfEvents(notifications: FollowedNotification[]): FollowedNotification[] {
  return [...notifications].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
}
