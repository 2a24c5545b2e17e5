import type { Pulse } from '../api/types';
import { formatDuration, formatLocal, plural } from '../lib/format';
import { timeInZones } from '../../../agent/domain/alerts/words';
import { ZonedTime } from './ZonedTime';
import './DurationChart.css';

/** A round top for the duration axis (1, 2 or 5 times a power of ten, in ms), so its labels read well. */
export function durationAxisTop(longestMs: number): number {
  const floor = 10 ** Math.floor(Math.log10(Math.max(longestMs, 1)));
  return [1, 2, 5, 10].map((step) => step * floor).find((top) => top >= longestMs) ?? 10 * floor;
}

/**
 * Bars of run durations, oldest left; failed runs in the "bad" colour. Plain SVG, no library,
 * with a duration axis on the left (0, half, top) and the first and last run's times below.
 */
export function DurationChart(props: { pulses: Pulse[]; zone?: string }) {
  // On a monitor's page, labelled with its zone (ZonedTime); elsewhere in the viewer's.
  const when = (iso: string) => (props.zone ? timeInZones(Date.parse(iso), props.zone, 'UTC') : formatLocal(iso));
  const runs = props.pulses.filter((p) => typeof p.duration_ms === 'number' && p.kind !== 'start').slice(0, 60).reverse();
  if (runs.length === 0) {
    return <p className="muted chart-empty">No timed runs yet. Runs sent with <code>cronbeat run</code> (or a /start pulse before the end) show their durations here.</p>;
  }
  const max = Math.max(...runs.map((r) => r.duration_ms!), 1);
  const top = durationAxisTop(max);
  const width = 600;
  const height = 120;
  const gap = 2;
  // At least 30 slots, newest on the right, so a few runs draw as bars rather than as a block.
  const slots = Math.max(runs.length, 30);
  const slot = width / slots;
  const barWidth = Math.max(1, slot - gap);
  const offset = slots - runs.length;
  // The x axis names the oldest and the newest run shown, whatever slots they sit in.
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  return (
    <figure className="chart">
      <div className="chart-plot">
        <div className="chart-y" data-testid="chart-y-axis">
          <span>{formatDuration(top)}</span>
          <span>{formatDuration(top / 2)}</span>
          <span>0</span>
        </div>
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Durations of the last ${runs.length} runs, longest ${formatDuration(max)}`} preserveAspectRatio="none">
          <line className="chart-grid" x1={0} x2={width} y1={height / 2} y2={height / 2} vectorEffect="non-scaling-stroke" />
          {runs.map((run, i) => {
            const h = Math.max(2, (run.duration_ms! / top) * height);
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
                <title>{`${when(run.received_at)}: ${formatDuration(run.duration_ms)}`}</title>
              </rect>
            );
          })}
        </svg>
        <div className="chart-x" data-testid="chart-x-axis">
          <span>
            first: {props.zone ? <ZonedTime value={first.received_at} zone={props.zone} /> : <time dateTime={first.received_at}>{formatLocal(first.received_at)}</time>}
          </span>
          <span>
            last: {props.zone ? <ZonedTime value={last.received_at} zone={props.zone} /> : <time dateTime={last.received_at}>{formatLocal(last.received_at)}</time>}
          </span>
        </div>
      </div>
      <figcaption className="muted">
        Run duration (up) by time the run ended (across, oldest left) · longest {formatDuration(max)} · last {plural(runs.length, 'run')}
      </figcaption>
    </figure>
  );
}
