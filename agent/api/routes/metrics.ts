import { Readable } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { metricsRepository, type ChannelMetricsRow, type MonitorMetricsRow } from '../../db/metrics';
import { escapeLabelValue, familyHeader, formatValue, prometheusText, PROMETHEUS_CONTENT_TYPE, type MetricFamily, type Sample } from '../../domain/formats/prometheusText';
import { MONITOR_STATUSES, monitorStatus } from '../../domain/monitors/status';
import { tokenView } from '../present/tokenVisibility';

/*
 * GET /metrics: the company's monitors, channels and the agent itself in Prometheus'
 * text format, for a read-only or full key (Bearer, as Prometheus' `authorization` sends it).
 * Base units (seconds), the cronbeat_ prefix, _total for counters.
 *
 * At 10,000 monitors the text is megabytes: it is read and written a page of monitors per
 * event-loop turn, so other requests are answered between pages, and compressed off the loop
 * (zlib's stream runs on the thread pool) when the scraper accepts it, as Prometheus does.
 */

/** Monitors read and written per event-loop turn. */
const PAGE = 250;

type MonitorValue = (row: MonitorMetricsRow, failures: Map<number, number>, now: number) => number | undefined;

/** The families with one sample per monitor (at most), after cronbeat_monitor_status. */
const MONITOR_FAMILIES: Array<{ name: string; help: string; type: MetricFamily['type']; value: MonitorValue }> = [
  { name: 'cronbeat_monitor_up', help: 'Whether the monitor is not failed (1) or failed (0).', type: 'gauge', value: (row) => (row.is_alerted === 1 ? 0 : 1) },
  {
    name: 'cronbeat_monitor_seconds_since_last_pulse',
    help: 'Seconds since the last pulse counted for; absent before the first.',
    type: 'gauge',
    value: (row, _failures, now) => (row.last_pulse_at === null ? undefined : Math.max(0, (now - row.last_pulse_at) / 1000)),
  },
  {
    name: 'cronbeat_monitor_last_pulse_timestamp_seconds',
    help: 'When the last pulse counted for, in seconds since the epoch.',
    type: 'gauge',
    value: (row) => (row.last_pulse_at === null ? undefined : row.last_pulse_at / 1000),
  },
  {
    name: 'cronbeat_monitor_last_run_duration_seconds',
    help: "The last run's duration, from its start to its end; absent when unknown.",
    type: 'gauge',
    value: (row) => (row.last_end_duration_ms === null ? undefined : row.last_end_duration_ms / 1000),
  },
  { name: 'cronbeat_monitor_last_exit_code', help: "The last run's exit code (0 for a plain success pulse).", type: 'gauge', value: lastExitCode },
  {
    name: 'cronbeat_monitor_failures_total',
    help: 'How many times the monitor failed (each failure notification).',
    type: 'counter',
    value: (row, failures) => failures.get(row.id) ?? 0,
  },
];
const STATUS_FAMILY = { name: 'cronbeat_monitor_status', help: "The monitor's status: 1 for the one it is in, 0 for the others.", type: 'gauge' } as const;

/** The exit code of a monitor's last run: its own, or 0 for a plain success pulse; none for a /fail without one. */
function lastExitCode(row: MonitorMetricsRow): number | undefined {
  if (row.last_end_exit_code !== null) return row.last_end_exit_code;
  return row.last_end_kind === 'success' ? 0 : undefined;
}

/** A family from one value per row; rows with no value (undefined) have no sample. */
function family<R>(name: string, help: string, type: MetricFamily['type'], rows: R[], labels: (row: R) => Sample['labels'], value: (row: R) => number | undefined): MetricFamily {
  const samples: Sample[] = [];
  for (const row of rows) {
    const v = value(row);
    if (v !== undefined) samples.push({ labels: labels(row), value: v });
  }
  return { name, help, type, samples };
}

const channelLabels = (row: ChannelMetricsRow) => ({ channel_id: row.id, channel: row.name, kind: row.kind });

/** The families after the monitors': channels and the agent itself. */
function restFamilies(channels: ChannelMetricsRow[], startedAt: number, now: number): MetricFamily[] {
  return [
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

/** One page of monitors written into each monitor family's text (index 0: the status family). */
function writePage(rows: MonitorMetricsRow[], failures: Map<number, number>, now: number, texts: string[][]): void {
  const page = new Array<string>(MONITOR_FAMILIES.length + 1).fill('');
  for (const row of rows) {
    // The stored tags are space-separated: a comma between them is the label's list.
    const labels = `monitor_id="${row.id}",monitor="${escapeLabelValue(row.name)}",slug="${escapeLabelValue(row.slug ?? '')}",tags="${escapeLabelValue(row.tags.replaceAll(' ', ','))}"`;
    const status = monitorStatus(row);
    for (const each of MONITOR_STATUSES) page[0] += `${STATUS_FAMILY.name}{${labels},status="${each}"} ${each === status ? 1 : 0}\n`;
    MONITOR_FAMILIES.forEach(({ name, value }, index) => {
      const v = value(row, failures, now);
      if (v !== undefined) page[index + 1] += `${name}{${labels}} ${formatValue(v)}\n`;
    });
  }
  page.forEach((text, index) => texts[index].push(text));
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type MetricsRepository = ReturnType<typeof metricsRepository>;

/** Notification rowids counted per event-loop turn while a company's failure counts catch up. */
const NOTIFICATIONS_PER_TURN = 20_000;

/**
 * Failures per monitor, per company, kept between scrapes: each scrape counts only the notifications
 * added since the last, a slice per turn (the first scrape of a million counts them all, in slices).
 * One catch-up at a time per company, so two scrapes never count a slice twice.
 */
function failureCounter(metrics: MetricsRepository) {
  const companies = new Map<number, { after: number; counts: Map<number, number>; catchingUp: Promise<void> }>();
  return (companyId: number): Promise<Map<number, number>> => {
    let company = companies.get(companyId);
    if (!company) {
      company = { after: 0, counts: new Map(), catchingUp: Promise.resolve() };
      companies.set(companyId, company);
    }
    const kept = company;
    // A catch-up that failed (its scrape answered 500) leaves `after` where it got to: the next one goes on from there.
    kept.catchingUp = kept.catchingUp.catch(() => {}).then(async () => {
      const until = metrics.lastNotification();
      while (kept.after < until) {
        const to = Math.min(until, kept.after + NOTIFICATIONS_PER_TURN);
        metrics.addFailures(kept.counts, companyId, kept.after, to);
        kept.after = to;
        if (to < until) await nextTurn();
      }
    });
    return kept.catchingUp.then(() => kept.counts);
  };
}

/** The exposition as pieces of text in order, read a page of monitors per event-loop turn. */
async function metricsPieces(metrics: MetricsRepository, failures: Map<number, number>, companyId: number, startedAt: number, now: number): Promise<string[]> {
  const texts: string[][] = [STATUS_FAMILY, ...MONITOR_FAMILIES].map((each) => [familyHeader(each)]);
  for (let after = 0; ; ) {
    const rows = metrics.monitors(companyId, after, PAGE);
    if (rows.length === 0) break;
    after = rows[rows.length - 1].id;
    writePage(rows, failures, now, texts);
    if (rows.length < PAGE) break;
    await nextTurn();
  }
  return [...texts.flat().filter((piece) => piece !== ''), prometheusText(restFamilies(metrics.channels(companyId), startedAt, now))];
}

export function metricsRoutes({ store, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  const metrics = metricsRepository(store.db);
  const failures = failureCounter(metrics);
  const startedAt = clock(); // routers are made as the agent starts
  router.get('/metrics', requireToken, async (ctx) => {
    const { companyId } = ctx.state;
    const counts = await failures(companyId);
    // A read-only key (Prometheus) sees no live token, even in a name, slug or tag a person wrote one into.
    const shown = tokenView(store, ctx.state.scope);
    const pieces = (await metricsPieces(metrics, counts, companyId, startedAt, clock())).map(shown.text);
    ctx.set('Cache-Control', 'no-store');
    ctx.vary('Accept-Encoding');
    ctx.type = PROMETHEUS_CONTENT_TYPE;
    const text = Readable.from(pieces, { objectMode: false });
    const encoding = ctx.acceptsEncodings('gzip', 'br', 'identity');
    if (encoding === 'gzip' || encoding === 'br') {
      ctx.set('Content-Encoding', encoding);
      // Brotli's default quality is far slower than gzip for a little less: a middle one.
      const compress = encoding === 'gzip' ? createGzip() : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
      ctx.body = text.pipe(compress);
    } else {
      ctx.body = text;
    }
  });
  return router;
}
