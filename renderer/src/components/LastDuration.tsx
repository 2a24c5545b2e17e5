import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Monitor } from '../api/types';
import { useApp } from '../lib/app-context';
import { formatDuration } from '../lib/format';

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
 * and again only when that monitor changes.
 */
export function LastDuration(props: { monitor: Monitor }) {
  const { api } = useApp();
  const { monitor } = props;
  const [ref, seen] = useSeen<HTMLSpanElement>();
  const [duration, setDuration] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    if (!seen) return;
    const controller = new AbortController();
    api.pulses(monitor.id, 1, 20, controller.signal).then(
      (page) => setDuration(page.data.find((p) => typeof p.duration_ms === 'number')?.duration_ms ?? null),
      () => setDuration(null),
    );
    return () => controller.abort();
  }, [api, monitor.id, monitor.updated_at, monitor.last_run_at, seen]);
  return <span ref={ref}>{formatDuration(duration)}</span>;
}
