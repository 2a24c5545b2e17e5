import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Monitor } from '../api/types';
import { useApp } from '../lib/app-context';
import { formatDuration } from '../lib/format';
import { queries } from '../lib/queries';

/** True once the element has scrolled into view (immediately where IntersectionObserver is missing). */
function useSeen<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (seen || !ref.current) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    });
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen];
}

/**
 * The duration of the newest timed run. Monitors do not carry it, so each visible row asks the
 * pulses API once it scrolls into view (a list of hundreds does not send hundreds of requests),
 * and again only when the live stream says that monitor changed (lib/liveCache.ts).
 */
export function LastDuration(props: { monitor: Monitor }) {
  const { api } = useApp();
  const [ref, seen] = useSeen<HTMLSpanElement>();
  const duration = useQuery({ ...queries.lastDuration(api, props.monitor.id), enabled: seen });
  // A read that failed (the agent away) keeps the duration known before it: "—" says there was no timed run.
  if (duration.isError && duration.data === undefined) return <span ref={ref} title="Could not read its run history">?</span>;
  return <span ref={ref}>{formatDuration(duration.data)}</span>;
}
