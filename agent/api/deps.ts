import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Store } from '../db/store';
import type { AgentEvents } from '../engine/events';
import type { Notifier } from '../engine/popups/notifier';
import type { AuthState } from './http/auth';
import type { CertificateChecks } from '../engine/certificates/scheduler';
import type { CliCommand } from './present/cliCommand';
import type { DeliveryWorker } from '../engine/delivery/worker';
import type { PublicUrlSetting, ServeOrDashboardSetting } from '../db/settings';
import type { Log } from '../log/logger';
import type { PulseRecorder } from '../engine/monitors/pulseBatch';
import type { WatchdogState } from '../engine/watchdog';
import type { FailedAuthLimiter } from './http/authLimiter';

/** What every router is built from. */
export interface ApiDeps {
  store: Store;
  events: AgentEvents;
  /** Milliseconds since the epoch; the only clock the API reads. */
  clock: () => number;
  log: Log;
  /** Desktop popups for pulses that fail or recover a monitor; none when absent. */
  notifier?: Notifier;
  /** Whether the notifier shows popups someone sees: false for a headless agent or `serve --no-popups`. */
  popups?: boolean;
  /** On-demand TLS certificate checks (the engine's certificate scheduler). */
  certificateChecks: CertificateChecks;
  /** The address the server is bound to; Host headers naming anything else are refused (hostGuard). */
  boundHost?: string;
  /** Further host names to answer to, such as the DNS name other machines use for this one. */
  allowedHosts?: string[];
  /** The channel outbox's sender; the API uses it for test messages. */
  deliveries: Pick<DeliveryWorker, 'sendTest'>;
  /** Wrong keys per client, shared by Bearer authentication and the keys in URL paths (line pulses, badges). */
  authLimiter?: FailedAuthLimiter;
  /** Bearer authentication; a router that needs it starts with router.use(deps.requireToken). */
  requireToken: Middleware<AuthState>;
  /** The public URL (serve --public-url or the dashboard's setting): links, copy-paste lines, a host answered to. */
  publicUrl?: PublicUrlSetting;
  /** The watchdog's URL (serve --watchdog-url or the dashboard's setting); a secret, never answered back. */
  watchdogUrl?: ServeOrDashboardSetting;
  /** What the watchdog last did (engine/watchdog.ts). */
  watchdogState?: WatchdogState;
  /** Stores pulses in groups (engine/monitors/pulseBatch.ts); one for both doors a pulse comes in by (plainPulses.ts). */
  pulseRecorder: PulseRecorder;
  /** How this machine runs the CLI; found from this process (PATH, bundle) when absent. */
  cli?: CliCommand;
}

/** A router whose routes run after Bearer authentication. */
export type AuthedRouter = Router<AuthState>;
