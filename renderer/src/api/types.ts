/** Shapes of the agent's API, as served (see the spec and README). Timestamps are ISO strings in UTC. */

export interface Server {
  id: number;
  company_id: number;
  name: string;
  identifier: string;
  ip_address: string;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export type MonitorStatus = 'monitoring' | 'running' | 'failed';

export interface Monitor {
  id: number;
  name: string;
  company_id: number;
  project_id: number | null;
  token: string;
  timezone: string;
  schedule: string;
  last_run_at: string;
  duration: number;
  is_alerted: number;
  alert_reason: string;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
  /** Read-only extensions of the engine; absent on an older agent. */
  status?: MonitorStatus;
  next_due_at?: string | null;
  pulse_url?: string;
}

export interface Pulse {
  id: number;
  kind: 'start' | 'success' | 'fail' | string;
  exit_code: number | null;
  rid: string | null;
  received_at?: string;
  created_at?: string;
  duration_ms: number | null;
  body: string | null;
  /** True when the output was longer than the agent keeps (the first 100 KB). */
  body_truncated?: boolean;
}

export interface NotificationData {
  type: 'monitor' | 'ssl_certificate' | 'server' | string;
  type_id: number;
  project_id: number | null;
  status: string;
  title: string;
  description: string;
  timezone: string;
  icon: string;
  [key: string]: unknown;
}

export interface AppNotification {
  id: string;
  type: string;
  notifiable_type: string;
  notifiable_id: number;
  data: NotificationData;
  read_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface Page<T> {
  current_page: number;
  data: T[];
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: PageLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
}

export type CertificateStatus = 'pending' | 'valid' | 'expiring' | 'expired' | 'invalid' | 'unreachable';

export interface Certificate {
  id: number;
  company_id: number;
  hostname: string;
  port: number;
  warn_days: number;
  status: CertificateStatus | string;
  expires_at: string | null;
  valid_from: string | null;
  issuer: string | null;
  subject: string | null;
  fingerprint_sha256: string | null;
  last_checked_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ServerAlert {
  id: number;
  server_id: number;
  username: string;
  command: string;
  created_at: string;
}
