/*
 * A dashboard sign-in session (a full key traded for a one-time code) ends by itself once a browser
 * has not used it for a while, as a web app's session does: one left in a browser the admin no
 * longer uses (a borrowed laptop, a copied profile) stops working on its own. A key made by
 * `cronbeat token create` or pasted into the sign-in form is the admin's to revoke, and never expires.
 */

/** How long a sign-in session may go unused before it stops working. */
export const SESSION_IDLE_DAYS = 30;
const SESSION_IDLE_MS = SESSION_IDLE_DAYS * 24 * 3_600_000;

/**
 * Whether a session made at `createdAt` and last used at `lastUsedAt` (null: never) has gone unused
 * for longer than SESSION_IDLE_DAYS at `now`. A use is recorded at most once a minute, which is far
 * finer than the limit.
 */
export function sessionIdleTooLong(createdAt: number, lastUsedAt: number | null, now: number): boolean {
  return now - Math.max(createdAt, lastUsedAt ?? createdAt) > SESSION_IDLE_MS;
}
