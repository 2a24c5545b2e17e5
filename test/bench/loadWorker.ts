import autocannon from 'autocannon';
import { quantile } from './stats';
import { pulsePaths } from './tokens';

/*
 * The load generator, run in its own process so it never shares a CPU thread with the server it
 * measures. Reads its job as JSON from argv[2], sends `amount` pulse GETs over `connections`
 * kept-alive connections, cycling through the seeded monitors, and prints one JSON line: the rate, exact
 * latency percentiles (from every response's own time, not autocannon's whole-ms histogram)
 * and the status counts.
 */
export interface LoadJob {
  url: string;
  /** GET /api/pulse/{token} for seeded monitors firstMonitor..firstMonitor + monitors - 1, in turn. */
  monitors: number;
  /** The first seeded monitor pulsed; 1 unless told. */
  firstMonitor?: number;
  connections: number;
  /** Pulses to send; or, with `seconds`, send for that long. */
  amount?: number;
  seconds?: number;
}

export interface LoadResult {
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as LoadJob;
  const paths = pulsePaths(job.monitors, job.firstMonitor);
  let next = 0;
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    ...(job.seconds ? { duration: job.seconds } : { amount: job.amount }),
    timeout: 30,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
  });
  const result = await instance;
  // autocannon rounds its duration to 10 ms, 1% of a one-second run: time the run here instead.
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const ok = result['2xx'];
  const output: LoadResult = {
    sent: result.requests.sent,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
  };
  console.log(JSON.stringify(output));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
