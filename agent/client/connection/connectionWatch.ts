/*
 * When to tell the user an agent cannot be reached: once it has been gone for longer than a
 * minute (a restart or a short network drop says nothing), once more when it is back. Pure: the
 * follower reports what happened with the time, and says what the state machine returns.
 */

/** An agent gone for longer than this is reported unreachable. */
export const UNREACHABLE_AFTER_MS = 60_000;

export interface ConnectionState {
  /** When the agent was last lost; null while connected. */
  downSince: number | null;
  /** Whether the user was told it is unreachable (so "back" is said, and "unreachable" only once). */
  announced: boolean;
}

export type ConnectionNotice = { kind: 'unreachable'; since: number } | { kind: 'back'; since: number };

export interface ConnectionStep {
  state: ConnectionState;
  /** What to tell the user now; absent when nothing. */
  notice?: ConnectionNotice;
}

export const CONNECTED: ConnectionState = { downSince: null, announced: false };

/** The connection dropped or an attempt failed at `now`; a later failure keeps the first time. */
export function connectionLost(state: ConnectionState, now: number): ConnectionStep {
  return { state: state.downSince === null ? { downSince: now, announced: false } : state };
}

/** Time passed: "unreachable" once the agent has been gone longer than UNREACHABLE_AFTER_MS, never twice. */
export function connectionTick(state: ConnectionState, now: number): ConnectionStep {
  if (state.downSince === null || state.announced || now - state.downSince <= UNREACHABLE_AFTER_MS) return { state };
  return { state: { ...state, announced: true }, notice: { kind: 'unreachable', since: state.downSince } };
}

/** Connected again at `now`: "back" only when "unreachable" was said. */
export function connectionRestored(state: ConnectionState, now: number): ConnectionStep {
  const { state: ticked, notice } = connectionTick(state, now);
  if (notice) return { state: CONNECTED }; // gone long enough, but back before anyone was told: nothing to say
  return { state: CONNECTED, notice: ticked.announced && ticked.downSince !== null ? { kind: 'back', since: ticked.downSince } : undefined };
}

/** "Cronbeat on backup-box unreachable since 14:02" and "Cronbeat on backup-box is back". */
export function noticeText(notice: ConnectionNotice, agentName: string, timeOfDay: (ms: number) => string): { title: string; body: string } {
  if (notice.kind === 'unreachable') {
    return {
      title: `Cronbeat on ${agentName} unreachable since ${timeOfDay(notice.since)}`,
      body: 'Alerts from it cannot reach you until it answers again; what it records meanwhile is shown then.',
    };
  }
  return { title: `Cronbeat on ${agentName} is back`, body: `It was unreachable from ${timeOfDay(notice.since)}; anything missed follows.` };
}

/** The name a user knows an agent by: its URL's host (backup-box, 10.0.0.5), without the port. */
export function agentName(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return baseUrl;
  }
}
