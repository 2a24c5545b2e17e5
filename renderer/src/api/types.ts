/*
 * Shapes of the agent's API, as served: the contract's own types (agent/contract/, type-only
 * imports, erased from the bundle), so the dashboard can never drift from what the API sends.
 */
import type { Alert } from '../../../agent/domain/alerts/alert';
import type { CertificateResource } from '../../../agent/contract/certificates';
import type { ChannelResource } from '../../../agent/contract/channels';
import type { MonitorView } from '../../../agent/contract/monitors';
import type { DeliveryResource, NotificationResource } from '../../../agent/contract/notifications';
import type { PulseResource } from '../../../agent/contract/pulses';
import type { ServerAlertResource, ServerResource, ServerWatcherResource } from '../../../agent/contract/servers';
import type { PaginationEnvelope } from '../../../agent/domain/formats/pagination';

export type { PageLink } from '../../../agent/domain/formats/pagination';
export type { CertificateStatus } from '../../../agent/domain/certificates/status';
export type { NotificationData } from '../../../agent/domain/alerts/notificationKinds';

export type Server = ServerResource;
export type ServerAlert = ServerAlertResource;
export type ServerWatcher = ServerWatcherResource;
/** Token and pulse URL are null for a read-only key (docs/api.md). */
export type Monitor = MonitorView;
export type { MonitorStatus } from '../../../agent/contract/monitors';
export type Pulse = PulseResource;
/** A notification as `kinds=all` lists it: with its alert as data (null for kinds without one). */
export type AppNotification = NotificationResource & { alert?: Alert | null };
export type Certificate = CertificateResource;
export type Page<T> = PaginationEnvelope<T>;

/** GET /api/agent: where the agent listens and the base URLs other machines can use. */
export interface AgentReach {
  host: string;
  port: number;
  /** True when only this machine can connect (127.0.0.1): a server's commands cannot reach it yet. */
  loopback_only: boolean;
  /** Base URLs for other machines: working now, or once the agent listens on all addresses (the public URL first). */
  remote_urls: string[];
  /** The public URL (serve --public-url or Settings); null when none is set. */
  public_url?: string | null;
  /** Whether alerts also show as popups on the agent's desktop: false for a headless agent. */
  popups?: boolean;
}

export type Channel = ChannelResource;
export type { ReportPreviewResource as ReportPreview } from '../../../agent/contract/reports';
export type Delivery = DeliveryResource;
export type { ChannelKind } from '../../../agent/contract/channels';
/** Monitors, servers and certificates carry the channels they alert: null for all. */
export interface Routed {
  channel_ids: number[] | null;
}
/** The answer of POST /api/channels/{id}/test. */
export interface ChannelTestResult {
  delivered: boolean;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}
