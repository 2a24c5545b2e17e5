import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { loopVerdict, WATCHDOG_EVERY_MS, WATCHDOG_FIRST_PING_MS, type LoopHealth } from '../domain/agentHealth/watchdog';
import type { Log } from '../log/logger';

/** What the watchdog last did, for the settings page: kept by the watchdog, read by the API. */
export interface WatchdogState {
  /** When the last ping answered with a 2xx was sent; null before the first. */
  lastPingAt: number | null;
  /** Why it is not pinging now, or why the last ping failed; null while pings are answered. */
  problem: string | null;
}

export interface WatchdogOptions {
  /** The URL to ping, read before every ping (the dashboard may set or clear it); null: no watchdog. */
  url: () => string | null;
  /** What the monitor loop notes of itself (agent/engine/loopHealth.ts). */
  health: LoopHealth;
  clock: () => number;
  log: Log;
  /** Sent as User-Agent: the only thing a ping says about the agent. */
  userAgent: string;
  /** How long one ping may take; default 10 s. */
  timeoutMs?: number;
  /** Where it notes what it last did (the settings answer shows it). */
  state?: WatchdogState;
}

/**
 * Pings the watchdog URL WATCHDOG_FIRST_PING_MS after start, then every WATCHDOG_EVERY_MS while
 * the monitor loop is healthy (agent/domain/agentHealth/watchdog.ts). A ping is a plain GET with no body and
 * no credentials of ours. The URL is the check's secret: it is never written to the log, only
 * its host when pinging starts. Returns the function that stops it.
 */
export function startWatchdog(options: WatchdogOptions): () => void {
  const { log, timeoutMs = 10_000, state = { lastPingAt: null, problem: null } } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  // What was last said in the log, so that each change is said once, not every minute.
  let silencedBy: string | null = null;
  let failure: string | null = null;
  let answeredOnce = false;

  const check = () => {
    if (stopped) return;
    timer = setTimeout(check, WATCHDOG_EVERY_MS);
    const url = options.url();
    if (url === null) {
      state.problem = null;
      return;
    }
    const verdict = loopVerdict(options.health, options.clock());
    if (!verdict.healthy) {
      if (silencedBy === null) log(`Watchdog: not pinging while ${verdict.reason}`, { level: 'warn' });
      silencedBy = verdict.reason;
      state.problem = `Not pinging while ${verdict.reason}.`;
      return;
    }
    if (silencedBy !== null) log('Watchdog: the monitor loop is healthy again; pinging again', { level: 'info' });
    silencedBy = null;
    const sentAt = options.clock();
    void ping(url, options.userAgent, timeoutMs).then((outcome) => {
      if (stopped) return;
      if (outcome.ok) {
        state.lastPingAt = sentAt;
        state.problem = null;
        if (failure !== null) log('Watchdog: pings are answered again', { level: 'info' });
        else if (!answeredOnce) log(`Watchdog: pinging ${new URL(url).host} every minute`, { level: 'info' });
        failure = null;
        answeredOnce = true;
      } else {
        if (failure === null) log(`Watchdog: the ping failed (${outcome.error}); trying again each minute`, { level: 'warn' });
        failure = outcome.error;
        state.problem = `The last ping failed (${outcome.error}).`;
      }
    });
  };

  timer = setTimeout(check, WATCHDOG_FIRST_PING_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** One GET of `url`; ok for a 2xx answer, else what went wrong, in words that never hold the URL. */
function ping(url: string, userAgent: string, timeoutMs: number): Promise<{ ok: true } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    try {
      const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { method: 'GET', headers: { 'User-Agent': userAgent } }, (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        resolve(status >= 200 && status < 300 ? { ok: true } : { ok: false, error: `HTTP ${status}` });
      });
      request.setTimeout(timeoutMs, () => request.destroy(Object.assign(new Error('timed out'), { code: 'timed out' })));
      request.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, error: error.code ?? 'no answer' }));
      request.end();
    } catch (error) {
      // A URL Node refuses to send to: said as its code, never with the URL, and never a crash of the agent.
      resolve({ ok: false, error: (error as NodeJS.ErrnoException).code ?? 'refused by Node' });
    }
  });
}
