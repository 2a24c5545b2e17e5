/** What a notification is about, for routing: a monitor, a certificate or a server. */
export type SubjectType = 'monitor' | 'ssl_certificate' | 'server';

/**
 * How a notification counts for routing: a recovery (a monitor recovered, a certificate valid
 * again, a quiet server reporting again) goes where the subject's last failure went; a failure
 * (a server gone quiet too) is remembered for that; anything else (a server's cron change) is
 * routed on its own.
 */
export function routingEvent(data: { type: SubjectType; status: string }): 'failure' | 'recovery' | 'other' {
  if (data.type === 'server') return data.status === 'quiet' ? 'failure' : data.status === 'reporting' ? 'recovery' : 'other';
  if (data.status === 'recovered' || data.status === 'valid') return 'recovery';
  if (data.type === 'ssl_certificate' && data.status === 'pending') return 'other';
  return 'failure';
}
