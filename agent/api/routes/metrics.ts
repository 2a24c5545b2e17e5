import Router from '@koa/router';
import type { ApiDeps, AuthedRouter } from '../deps';
import { metricsRepository, type ChannelMetricsRow, type MonitorMetricsRow } from '../../db/metrics';
import { tagsOf } from '../../db/monitorLines';
import { prometheusText, PROMETHEUS_CONTENT_TYPE, type MetricFamily, type Sample } from '../../domain/prometheusText';
import { MONITOR_STATUSES, monitorStatus } from '../../domain/monitorStatus';

/*
 * GET /metrics (issue 23): the company's monitors, channels and the agent itself in Prometheus'
 * text format, for a read-only or full key (Bearer, as Prometheus' `authorization` sends it).
 * Base units (seconds), the cronbeat_ prefix, _total for counters.
 */

const monitorLabels = (row: MonitorMetricsRow) => ({ monitor_id: row.id, monitor: row.name, slug: row.slug ?? '', tags: tagsOf(row).join(',') });
const channelLabels = (row: ChannelMetricsRow) => ({ channel_id: row.id, channel: row.name, kind: row.kind });

/** A family from one value per row; rows with no value (undefined) have no sample. */
function family<R>(name: string, help: string, type: MetricFamily['type'], rows: R[], labels: (row: R) => Sample['labels'], value: (row: R) => number | undefined): MetricFamily {
  const samples: Sample[] = [];
  for (const row of rows) {
    const v = value(row);
    if (v !== undefined) samples.push({ labels: labels(row), value: v });
  }
  return { name, help, type, samples };
}

/** The exit code of a monitor's last run: its own, or 0 for a plain success pulse; none for a /fail without one. */
function lastExitCode(row: MonitorMetricsRow): number | undefined {
  if (row.last_end_exit_code !== null) return row.last_end_exit_code;
  return row.last_end_kind === 'success' ? 0 : undefined;
}

export function metricsFamilies(monitors: MonitorMetricsRow[], failures: Map<number, number>, channels: ChannelMetricsRow[], startedAt: number, now: number): MetricFamily[] {
  const statusSamples: Sample[] = monitors.flatMap((row) => {
    const status = monitorStatus(row);
    return MONITOR_STATUSES.map((each) => ({ labels: { ...monitorLabels(row), status: each }, value: each === status ? 1 : 0 }));
  });
  return [
    { name: 'cronbeat_monitor_status', help: 'The monitor\'s status: 1 for the one it is in, 0 for the others.', type: 'gauge', samples: statusSamples },
    family('cronbeat_monitor_up', 'Whether the monitor is not failed (1) or failed (0).', 'gauge', monitors, monitorLabels, (row) => (row.is_alerted === 1 ? 0 : 1)),
    family('cronbeat_monitor_seconds_since_last_pulse', 'Seconds since the last pulse counted for; absent before the first.', 'gauge', monitors, monitorLabels, (row) =>
      row.last_pulse_at === null ? undefined : Math.max(0, (now - row.last_pulse_at) / 1000),
    ),
    family('cronbeat_monitor_last_pulse_timestamp_seconds', 'When the last pulse counted for, in seconds since the epoch.', 'gauge', monitors, monitorLabels, (row) =>
      row.last_pulse_at === null ? undefined : row.last_pulse_at / 1000,
    ),
    family('cronbeat_monitor_last_run_duration_seconds', "The last run's duration, from its start to its end; absent when unknown.", 'gauge', monitors, monitorLabels, (row) =>
      row.last_end_duration_ms === null ? undefined : row.last_end_duration_ms / 1000,
    ),
    family('cronbeat_monitor_last_exit_code', "The last run's exit code (0 for a plain success pulse).", 'gauge', monitors, monitorLabels, lastExitCode),
    family('cronbeat_monitor_failures_total', 'How many times the monitor failed (each failure notification).', 'counter', monitors, monitorLabels, (row) => failures.get(row.id) ?? 0),
    family('cronbeat_channel_deliveries_waiting', 'Deliveries waiting to be sent or being sent.', 'gauge', channels, channelLabels, (row) => row.waiting),
    family('cronbeat_channel_deliveries_failed_total', 'Deliveries given up on after their last retry.', 'counter', channels, channelLabels, (row) => row.failed),
    family('cronbeat_channel_oldest_waiting_delivery_age_seconds', 'Age of the oldest waiting delivery; 0 when none waits.', 'gauge', channels, channelLabels, (row) =>
      row.oldest_waiting_at === null ? 0 : Math.max(0, (now - row.oldest_waiting_at) / 1000),
    ),
    { name: 'cronbeat_agent_up', help: 'The agent answers (always 1 in an answer).', type: 'gauge', samples: [{ labels: {}, value: 1 }] },
    { name: 'cronbeat_agent_start_time_seconds', help: 'When the agent started, in seconds since the epoch.', type: 'gauge', samples: [{ labels: {}, value: startedAt / 1000 }] },
    { name: 'cronbeat_agent_uptime_seconds', help: 'Seconds since the agent started.', type: 'gauge', samples: [{ labels: {}, value: Math.max(0, (now - startedAt) / 1000) }] },
  ];
}

export function metricsRoutes({ store, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router();
  const metrics = metricsRepository(store.db);
  const startedAt = clock(); // routers are made as the agent starts
  router.get('/metrics', requireToken, (ctx) => {
    const { companyId } = ctx.state;
    const now = clock();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = PROMETHEUS_CONTENT_TYPE;
    ctx.body = prometheusText(metricsFamilies(metrics.monitors(companyId), metrics.failures(companyId), metrics.channels(companyId), startedAt, now));
  });
  return router;
}
