import { useSyncExternalStore } from 'react';

/*
 * Whether the agent answers, as every request finds out. While it does not, screens keep the
 * last data they had, and the layout says plainly that it is stale and since when.
 */
export interface Reachability {
  /** When a request first failed to reach the agent; null while it answers. */
  unreachableSince: number | null;
  /** When the agent last answered anything; what is on screen is from then at the latest. */
  lastAnswerAt: number | null;
}

let state: Reachability = { unreachableSince: null, lastAnswerAt: null };
const listeners = new Set<() => void>();

function set(next: Reachability): void {
  if (next.unreachableSince === state.unreachableSince && next.lastAnswerAt === state.lastAnswerAt) return;
  state = next;
  listeners.forEach((listener) => listener());
}

/** A request got an answer (any status: the agent is up). */
export function agentAnswered(now = Date.now()): void {
  set({ unreachableSince: null, lastAnswerAt: now });
}

/** A request could not reach the agent (refused, reset, no network). */
export function agentUnreachable(now = Date.now()): void {
  if (state.unreachableSince === null) set({ ...state, unreachableSince: now });
}

export function useReachability(): Reachability {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}
