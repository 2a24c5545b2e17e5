import type { Pulse } from '../api/types';
import { formatDuration, formatLocal, plural } from '../lib/format';

/** Bars of run durations, oldest left; failed runs in the "bad" colour. Plain SVG, no library. */
export function DurationChart(props: { pulses: Pulse[] }) {
  const runs = props.pulses.filter((p) => typeof p.duration_ms === 'number' && p.kind !== 'start').slice(0, 60).reverse();
  if (runs.length === 0) {
    return <p className="muted chart-empty">No timed runs yet. Runs sent with <code>cronbeat run</code> (or a /start pulse before the end) show their durations here.</p>;
  }
  const max = Math.max(...runs.map((r) => r.duration_ms!), 1);
  const width = 600;
  const height = 120;
  const gap = 2;
  // At least 30 slots, newest on the right, so a few runs draw as bars rather than as a block.
  const slots = Math.max(runs.length, 30);
  const slot = width / slots;
  const barWidth = Math.max(1, slot - gap);
  const offset = slots - runs.length;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Durations of the last ${runs.length} runs, longest ${formatDuration(max)}`} preserveAspectRatio="none">
        {runs.map((run, i) => {
          const h = Math.max(2, (run.duration_ms! / max) * (height - 4));
          return (
            <rect
              key={run.id}
              className={run.kind === 'fail' || (run.exit_code ?? 0) !== 0 ? 'bar-bad' : 'bar-good'}
              x={(offset + i) * slot}
              y={height - h}
              width={barWidth}
              height={h}
              rx={1.5}
            >
              <title>{`${formatLocal(run.received_at)}: ${formatDuration(run.duration_ms)}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="muted">
        Longest {formatDuration(max)} · last {plural(runs.length, 'run')}
      </figcaption>
    </figure>
  );
}
