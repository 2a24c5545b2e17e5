import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NotificationCursor } from '../agent/client/follow/notificationCursor';

/*
 * Which of a remote agent's notifications this app has shown, kept in the data folder across
 * restarts: what the agent raised while the app was closed pops up on the next start (a
 * terminal follower starts with what happens from then on), and nothing pops up twice.
 */

const FILE = 'remote-notifications.json';

/** The cursor saved for the agent at `url`; undefined when none was, it was for another agent, or the file is unreadable. */
export function loadRemoteCursor(dataDir: string, url: string): NotificationCursor | undefined {
  try {
    const saved = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as { url?: unknown; newestAt?: unknown; recentIds?: unknown };
    if (saved.url !== url || typeof saved.newestAt !== 'string' || !Array.isArray(saved.recentIds)) return undefined;
    return { newestAt: saved.newestAt, recentIds: saved.recentIds.filter((id): id is string => typeof id === 'string') };
  } catch {
    return undefined;
  }
}

/** Saves it atomically (temp file then rename), readable by this user only, as settings.json is. Throws when the disk refuses. */
export function saveRemoteCursor(dataDir: string, url: string, cursor: NotificationCursor): void {
  const file = join(dataDir, FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify({ url, ...cursor }), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
