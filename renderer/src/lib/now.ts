import { useSyncExternalStore } from 'react';

/*
 * One shared 30-second tick, so "3 min ago" and "in 5 min" stay true on a screen left open
 * without every <Time> running its own timer.
 */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // The first to show a time after none did: the time kept from back then is stale.
  if (!timer) now = Date.now();
  timer ??= setInterval(() => {
    now = Date.now();
    listeners.forEach((l) => l());
  }, 30_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The current time in ms, refreshed every 30 s while something shows it. Components read this
 * rather than the clock, so a list of thousands re-renders on the tick, not on every render of each row.
 */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}
