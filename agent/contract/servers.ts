import { z } from 'zod';
import { ipVersion } from '../domain/net/ipAddress';
import { ALERT_COMMAND_CHARS, ALERT_USERNAME_CHARS, CRON_CHANGES, type CronChange } from '../domain/servers/jobChanges';
import { channelIdsField } from './channelIds';
import { idempotencyKeyHeader, nameString, patchOf, requiredInteger, requiredString, queryError, utf8Query, wellFormed } from './fields';

export const serverInput = z.object({
  name: nameString('name', 255),
  ip_address: requiredString('ip_address', 45).refine((value) => ipVersion(value) !== 0, {
    message: 'The ip address field must be a valid IP address.',
  }),
  identifier: requiredString('identifier', 64).regex(
    /^[A-Za-z0-9._-]+$/,
    'The identifier field may only contain letters, digits, dots, dashes and underscores.',
  ),
  channel_ids: channelIdsField(),
});

export const serverPatch = patchOf(serverInput);

/** GET /api/servers?q=: servers whose name, identifier or IP address contains q (any case). */
export const serverListQuery = z.object({
  q: z
    .string({ error: queryError('q', 'The q field must be a string.') })
    .max(255, 'The q field must not be greater than 255 characters.')
    .refine(...utf8Query('q'))
    .optional(),
});

export const serverAlertInput = z.object({
  username: nameString('username', ALERT_USERNAME_CHARS),
  server_id: requiredString('server_id', 64),
  command: requiredString('command', ALERT_COMMAND_CHARS).refine(...wellFormed('command')),
  // Extensions the `cronbeat crontab watch` sends; other clients may leave them out.
  change: z
    .enum(CRON_CHANGES, { error: 'The change field must be one of: added, removed, altered.' })
    .default('altered'),
  previous_command: z
    .string({ error: 'The previous command field must be a string.' })
    .max(ALERT_COMMAND_CHARS, `The previous command field must not be greater than ${ALERT_COMMAND_CHARS} characters.`)
    .refine(...wellFormed('previous_command'))
    .nullish()
    .transform((value) => value || null),
});
/** POST /api/servers/alert's own header: a watcher that retries an alert whose answer it lost sends the same key, and the alert is stored once. */
export const serverAlertHeaders = z.object({ 'idempotency-key': idempotencyKeyHeader });

/** The body of POST /api/servers/alert as a client (`cronbeat crontab watch`) sends it. */
export type ServerAlertInput = z.input<typeof serverAlertInput>;

// A watcher's name as it names itself in its reports ('': one that names none, an older cronbeat).
const WATCHER_NAME = /^[A-Za-z0-9._-]*$/;
const WATCHER_NAME_MESSAGE = 'The watcher field may only contain letters, digits, dots, dashes and underscores.';

/** DELETE /api/servers/{id}/watchers?watcher=NAME: the watcher to forget (`watcher=` alone: the unnamed one). */
export const serverWatcherQuery = z.object({
  watcher: z
    .string({ error: queryError('watcher', 'The watcher field is required.') })
    .max(64, 'The watcher field must not be greater than 64 characters.')
    .regex(WATCHER_NAME, WATCHER_NAME_MESSAGE),
});

/** What `cronbeat crontab watch` sends with every snapshot, changed or not. */
export const serverHeartbeatInput = z.object({
  server_id: requiredString('server_id', 64),
  interval_seconds: requiredInteger('interval_seconds', 1, 86_400)
    .nullish()
    .transform((value) => value ?? null),
  jobs: requiredInteger('jobs', 0, 1_000_000)
    .nullish()
    .transform((value) => value ?? null),
  // Which of the server's watchers this is (its kind and file set): each one's `jobs` is its part of the server's watched_jobs.
  watcher: z
    .string({ error: 'The watcher field must be a string.' })
    .max(64, 'The watcher field must not be greater than 64 characters.')
    .regex(WATCHER_NAME, WATCHER_NAME_MESSAGE)
    .nullish()
    .transform((value) => value ?? ''),
});

/*
 * Answers. Times are API timestamps (agent/domain/time/apiTimestamps.ts); the spec's fields come in the
 * spec's order, then Cronbeat's own (docs/api.md).
 */

/** A server's own fields (agent/api/present/present.ts presentServer). */
export interface ServerFields {
  id: number;
  company_id: number;
  name: string;
  identifier: string;
  ip_address: string;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Ours, read-only: when the server's crontab watchers last reported, and whether any of them went quiet. */
export interface ServerReport {
  last_report_at: string | null;
  report_interval_seconds: number | null;
  watched_jobs: number | null;
  quiet: boolean;
}

/** Ours: one of a server's watchers (GET /api/servers/{id}/watchers), each quiet on its own. */
export interface ServerWatcherResource {
  /** As it names itself in its reports; '' for one that names none (an older cronbeat). */
  watcher: string;
  last_report_at: string;
  report_interval_seconds: number | null;
  jobs: number | null;
  quiet: boolean;
}

/** A server as GET /api/servers and friends answer it: with its watcher's report and the channels it alerts. */
export type ServerResource = ServerFields & ServerReport & { channel_ids: number[] | null };

export interface ServerAlertResource {
  id: number;
  server_id: number;
  username: string;
  command: string;
  change: CronChange;
  previous_command: string | null;
  created_at: string;
}
