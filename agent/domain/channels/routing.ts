import type { AlertReason } from '../alerts/alert';

/** What a notification is about, for routing: a monitor, a certificate or a server. */
export type SubjectType = 'monitor' | 'ssl_certificate' | 'server';

/**
 * How a notification counts for routing: a recovery (a monitor recovered, a certificate valid
 * again, a quiet server reporting again) goes where the subject's last failure went; a failure
 * (a server gone quiet too) is remembered for that; anything else (a server's cron change) is
 * routed on its own. A monitor's flapping or steady-again alert (its `reason`) counts as what it
 * says the monitor is now: "now fine" takes the place of a recovery, so it goes where the failure
 * it ends was told.
 */
export function routingEvent(data: { type: SubjectType; status: string }, reason?: AlertReason): 'failure' | 'recovery' | 'other' {
  if (reason?.kind === 'flapping' || reason?.kind === 'steady') return reason.failed ? 'failure' : 'recovery';
  if (data.type === 'server') return data.status === 'quiet' ? 'failure' : data.status === 'reporting' ? 'recovery' : 'other';
  if (data.status === 'recovered' || data.status === 'valid') return 'recovery';
  if (data.type === 'ssl_certificate' && data.status === 'pending') return 'other';
  return 'failure';
}
