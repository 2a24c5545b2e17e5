/*
 * Shapes of the agent's API, as served. They are the agent's own presenter types (type-only
 * imports, erased from the bundle), so the dashboard can never drift from what the API sends.
 */
import type {
  CertificateResource,
  MonitorResource,
  NotificationResource,
  PulseResource,
  ServerAlertResource,
  ServerResource,
} from '../../../agent/api/present';
import type { PaginationEnvelope } from '../../../agent/domain/pagination';

export type { PageLink } from '../../../agent/domain/pagination';
export type { CertificateStatus } from '../../../agent/domain/certificates';
export type { NotificationData } from '../../../agent/domain/notificationKinds';

export type Server = ServerResource;
export type ServerAlert = ServerAlertResource;
export type Monitor = MonitorResource;
export type MonitorStatus = Monitor['status'];
export type Pulse = PulseResource;
export type AppNotification = NotificationResource;
export type Certificate = CertificateResource;
export type Page<T> = PaginationEnvelope<T>;
