import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './api/app';
import { createHttpServer, type HttpTimeouts } from './api/http/timeouts';
import { redactingLog } from './api/present/redact';
import { lockDataFolder, type DataFolderLock } from './db/lock';
import { makeDataFolderPrivate } from './dataFolder/privateFolder';
import { databaseFile } from './dataFolder/dataDir';
import type { SqliteOptions } from './db/open';
import { openStore, openStoreCheckingLater, type Store } from './db/store';
import { finishInterruptedRestore } from './db/restoreFinish';
import { publicUrlSetting, serveOrDashboardSetting } from './db/settings';
import { AgentEvents } from './engine/events';
import { startMonitorLoop } from './engine/loop';
import { LoopHealthRecord } from './engine/loopHealth';
import { startWatchdog, type WatchdogState } from './engine/watchdog';
import { createOverdueFailer } from './engine/failOverdue';
import { showPendingPopups } from './engine/popups/pendingPopups';
import { TlsCertificateChecker, type CheckerOptions } from './engine/certificates/checker';
import { CertificateScheduler } from './engine/certificates/scheduler';
import { silentNotifier, type Notifier } from './engine/popups/notifier';
import { DeliveryWorker } from './engine/delivery/worker';
import { noteRequest } from './engine/slices';
import { startReports } from './engine/reports/sendReports';
import { startNotificationPruning } from './engine/notificationPruning';
import { createLogger, pinoLog, type Log } from './log/logger';

export interface AgentOptions {
  dataDir: string;
  /** Defaults to 127.0.0.1: the agent is for this machine unless told otherwise. */
  host?: string;
  /** Defaults to 8787; 0 picks a free port. */
  port?: number;
  notifier?: Notifier;
  /** Whether `notifier` shows popups on a desktop someone sees (the dashboard says where alerts go); default: a notifier was given. */
  popups?: boolean;
  /** Milliseconds since the epoch; defaults to Date.now. The desktop app and tests may pass their own. */
  clock?: () => number;
  /** Where the agent's log lines go; default: pino on stderr (agent/log/logger.ts). */
  log?: Log;
  /** Extra trusted roots (a private CA) and the timeout for TLS certificate checks. */
  certificateChecks?: CheckerOptions;
  /** The built dashboard to serve at "/"; default: dist/renderer next to the bundle or in the repository. */
  rendererDir?: string;
  /** Host names the API answers to besides this machine's own (DNS rebinding guard, api/http/hostGuard.ts). */
  allowedHosts?: string[];
  /** Read the client's address and scheme from a reverse proxy's X-Forwarded-* headers (api/app.ts). */
  trustProxy?: boolean;
  /**
   * The address the admin opens Cronbeat at (serve --public-url, checked with checkPublicUrl): the
   * base of links in alerts and copy-paste lines, and a host the agent answers to. Wins over the
   * dashboard's setting; without either, links use the address the agent listens on.
   */
  publicUrl?: string;
  /**
   * A dead-man's switch to ping while the monitor loop is healthy (serve --watchdog-url, checked with
   * checkWatchdogUrl); wins over the dashboard's setting. agent/engine/watchdog.ts.
   */
  watchdogUrl?: string;
  /** Limits on slow clients; defaults in DEFAULT_HTTP_TIMEOUTS. */
  timeouts?: Partial<HttpTimeouts>;
  /** How to load SQLite (the desktop app in development passes an addon built for Electron). */
  sqlite?: SqliteOptions;
  /** Notification channels: how deliveries are sent. */
  channels?: ChannelOptions;
  /**
   * Listen at once and check the database meanwhile: reads are answered during the
   * check, while the monitor loop, deliveries, certificate checks and every request that may write
   * wait for it to pass (`ready`). Default: check first, then listen.
   */
  checkWhileListening?: boolean;
}

export interface ChannelOptions {
  /** The dashboard's address in messages' links; default: the address the agent listens on. */
  dashboardUrl?: string;
  /** The admin's zone for times in alerts (besides the monitor's); default: this machine's zone. */
  adminZone?: string;
  /** How long one send may take; default 10 s. */
  timeoutMs?: number;
  /** How long opening a connection may take; default 5 s (at most timeoutMs). */
  connectTimeoutMs?: number;
  /** Extra trusted roots (PEM) for SMTP servers with a private CA. */
  trustedCa?: string[];
}

export interface RunningAgent {
  url: string;
  host: string;
  port: number;
  store: Store;
  events: AgentEvents;
  clock: () => number;
  notifier: Notifier;
  deliveries: DeliveryWorker;
  /**
   * Resolves once the database passed its check and the loop runs (at once unless
   * `checkWhileListening`); rejects with the refusal of a damaged database, after which the agent
   * has stopped listening, having written nothing.
   */
  ready: Promise<void>;
  /** Runs `write` once writes are allowed, before any request held meanwhile (at once when they are). */
  whenWritable(write: () => void): void;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

/** Opens the data folder's database and serves the API; resolves once it accepts connections. */
export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  const { dataDir, host = '127.0.0.1', port = 8787 } = options;
  const clock = options.clock ?? Date.now;
  const log = redactingLog(options.log ?? pinoLog(createLogger()));
  const notifier = options.notifier ?? silentNotifier;
  makeDataFolderPrivate(dataDir);
  const lock = lockDataFolder(dataDir, options.sqlite);
  const { store, writable } = openStoreHoldingLock(lock, databaseFile(dataDir), clock, options, log);
  const started = deferred();
  const events = new AgentEvents();
  const publicUrl = publicUrlSetting(store.settings, options.publicUrl ?? null);
  const watchdogUrl = serveOrDashboardSetting(store.settings, 'watchdog_url', options.watchdogUrl ?? null);
  const watchdogState: WatchdogState = { lastPingAt: null, problem: null };
  const checker = new TlsCertificateChecker(options.certificateChecks);
  const adminZone = options.channels?.adminZone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const certificateChecks = new CertificateScheduler({ store, events, notifier, clock, log, checker, adminZone });
  let listeningUrl = '';
  const deliveries = new DeliveryWorker({
    store,
    events,
    notifier,
    clock,
    log,
    dashboardUrl: () => options.channels?.dashboardUrl ?? publicUrl.current() ?? listeningUrl,
    adminZone,
    timeoutMs: options.channels?.timeoutMs,
    connectTimeoutMs: options.channels?.connectTimeoutMs,
    trustedCa: options.channels?.trustedCa,
  });
  const listener = createApp({
    boundHost: host,
    allowedHosts: options.allowedHosts,
    trustProxy: options.trustProxy,
    publicUrl,
    watchdogUrl,
    watchdogState,
    adminZone,
    rendererDir: options.rendererDir,
    store,
    events,
    clock,
    log,
    notifier,
    popups: options.popups ?? options.notifier !== undefined,
    certificateChecks,
    deliveries,
    writesAllowed: started.promise,
  });
  // Background work in slices (a burst's failures, its digests) leaves room for requests while they come.
  // Noted in the one listener: a second 'request' listener made Node copy the listener list for every request.
  const server = createHttpServer(options.timeouts ?? {}, (request, response) => {
    noteRequest();
    listener(request, response);
  }, options.trustProxy);
  try {
    await listen(server, port, host);
  } catch (error) {
    // A check still under way would end on the closed connection: its outcome no longer matters.
    writable?.catch(() => undefined);
    store.close();
    lock.release();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  listeningUrl = `http://${urlHost}:${bound}`;

  // Everything that writes starts once the database is known whole: popups, the loop (whose
  // first turn gives the catch-up graces), certificate checks, deliveries; then held requests.
  let stopMonitorLoop = () => {};
  let stopWatchdog = () => {};
  let stopReports = () => {};
  let stopPruning = () => {};
  const writes: Array<() => void> = [];
  let isWritable = false;
  const startWriting = () => {
    showPendingPopups({ store, notifier }, clock());
    const health = new LoopHealthRecord();
    stopMonitorLoop = startMonitorLoop({
      failer: createOverdueFailer({ store, events, notifier, adminZone }),
      events,
      clock,
      log,
      health,
    });
    stopWatchdog = startWatchdog({ url: () => watchdogUrl.current(), health, clock, log, userAgent: 'Cronbeat-Watchdog', state: watchdogState });
    certificateChecks.start();
    deliveries.start();
    stopReports = startReports({ store, events, clock, log, adminZone });
    stopPruning = startNotificationPruning({ store, clock, log });
    isWritable = true;
    for (const write of writes.splice(0)) write();
    started.resolve();
  };
  let stopping: Promise<void> | undefined;
  const close = () =>
    (stopping ??= (async () => {
      stopWatchdog();
      stopReports();
      stopPruning();
      stopMonitorLoop();
      events.close();
      await stopServer(server);
      await certificateChecks.stop();
      await deliveries.stop();
      store.close();
      lock.release();
    })());
  if (writable === null) startWriting();
  else {
    writable.then(startWriting).catch(async (error: unknown) => {
      started.reject(error);
      await close();
    });
  }
  const ready = started.promise.catch(async (error: unknown) => {
    await stopping;
    throw error;
  });
  ready.catch(() => undefined); // a caller that never asks is told by the log and the 503s

  return {
    url: `http://${urlHost}:${bound}`,
    host,
    port: bound,
    store,
    events,
    clock,
    notifier,
    deliveries,
    ready,
    whenWritable: (write) => (isWritable ? write() : void writes.push(write)),
    close,
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined); // rejections are handled by `ready` and the held requests
  return { promise, resolve, reject };
}

/**
 * Opens the database once the folder is ours; a refused database frees the folder again.
 * `writable` is null when the file was checked before this returned.
 */
function openStoreHoldingLock(
  lock: DataFolderLock,
  file: string,
  clock: () => number,
  options: { sqlite?: SqliteOptions; checkWhileListening?: boolean },
  log: Log,
): { store: Store; writable: Promise<void> | null } {
  try {
    // A restore killed after its backup was checked is finished, rather than starting on a new empty database.
    const finished = finishInterruptedRestore(file, clock());
    if (finished) log(finished, { level: 'warn' });
    if (!options.checkWhileListening) return { store: openStore(file, clock(), options.sqlite), writable: null };
    return openStoreCheckingLater(file, clock, options.sqlite);
  } catch (error) {
    lock.release();
    throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Closes idle keep-alive connections at once and in-flight ones after 5 s at the latest. */
function stopServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), 5000).unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
