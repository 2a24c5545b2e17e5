import { useCallback, useEffect, useRef, useState } from 'react';
import { useApp } from './app-context';
import type { LiveEvent } from './live';

export interface Resource<T> {
  data: T | undefined;
  error: Error | undefined;
  /** True only for the first load; live refreshes keep showing the old data. */
  loading: boolean;
  reload: () => void;
}

/**
 * Loads data for a screen and reloads it quietly when a live event of one of `topics` arrives
 * (or on a polling tick). `key` changes (an id, a page) start a fresh load.
 */
export function useResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: string,
  topics: string[],
): Resource<T> {
  const { live } = useApp();
  const [state, setState] = useState<{ key: string; data?: T; error?: Error }>({ key });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const topicsKey = topics.join(',');

  useEffect(() => {
    const controller = new AbortController();
    loadRef.current(controller.signal).then(
      (data) => setState({ key, data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((old) => ({
          key,
          // On a refresh failure keep the data we had: the error shows as a banner.
          data: old.key === key ? old.data : undefined,
          error: error instanceof Error ? error : new Error(String(error)),
        }));
      },
    );
    return () => controller.abort();
  }, [key, tick]);

  useEffect(() => {
    const wanted = new Set(topicsKey.split(','));
    let pending: ReturnType<typeof setTimeout> | undefined;
    const off = live.subscribe((event: LiveEvent) => {
      if (event.type !== 'poll' && !wanted.has(event.type)) return;
      // Several events in a burst (a failure and its notification) cause one reload.
      clearTimeout(pending);
      pending = setTimeout(() => setTick((t) => t + 1), 50);
    });
    return () => {
      off();
      clearTimeout(pending);
    };
  }, [live, topicsKey]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: !current || (state.data === undefined && state.error === undefined),
    reload,
  };
}
