import { z } from 'zod';
import { oneOf } from './fields';

/* A channel's report (docs/channels.md, "Reports"): GET /api/channels/{id}/report-preview. */

/** `frequency`: the period to preview; default the channel's own, or daily when its reports are off. */
export const reportPreviewQuery = z.object({ frequency: oneOf('frequency', ['daily', 'weekly', 'monthly']) });

export interface ReportPreviewResource {
  frequency: 'daily' | 'weekly' | 'monthly';
  /** The report's time of day and zone: the channel's, or 08:00 in the agent's zone. */
  time: string;
  timezone: string;
  /** The last whole period, as the next report of this frequency would cover it. */
  from: string;
  to: string;
  title: string;
  /** The whole report as plain text, every monitor listed. */
  text: string;
  /** What the channel would be sent: an email's subject, text and HTML, or the JSON body of the request (cut to the service's limits). */
  message: { subject: string; text: string; html: string } | Record<string, unknown>;
}
