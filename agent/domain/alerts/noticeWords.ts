import { alertMs, isNoticeReason, type Alert, type NoticeReason } from './alert';
import { describeMoment } from './reasonPieces';
import { describeDuration } from '../time/durations';
import { daysLeft } from '../certificates/status';
import { terminalText } from '../text/controlCharacters';

/*
 * The words of an alert that is not about a monitor's run (a certificate, a server's crontab and
 * its watcher), made from its reason as data: the title and description the API's notification
 * shows, a popup says and every channel sends. One place, so they cannot drift apart.
 */

export interface NoticeWords {
  title: string;
  description: string;
}

type Certificate = Extract<NoticeReason, { kind: 'certificate' }>;

/** "example.com", or "example.com:8443" when the port is not the usual one; an IPv6 address in brackets before a port ("[::1]:8443"). */
export function hostLabel(cert: { hostname: string; port: number }): string {
  if (cert.port === 443) return cert.hostname;
  return `${cert.hostname.includes(':') ? `[${cert.hostname}]` : cert.hostname}:${cert.port}`;
}

function remaining(expiresAt: number, now: number): string {
  const days = daysLeft(expiresAt, now);
  return days === 1 ? 'in 1 day' : `in ${days} days`;
}

function certificateTitle(cert: Certificate, now: number): string {
  const host = hostLabel(cert);
  switch (cert.status) {
    case 'valid':
      return `Certificate valid: ${host}`;
    case 'expiring':
      return `Certificate expires ${remaining(alertMs(cert.expires_at) ?? now, now)}: ${host}`;
    case 'expired':
      return `Certificate expired: ${host}`;
    case 'invalid':
      return `Certificate invalid: ${host}`;
    case 'unreachable':
      return `Certificate check failed: ${host}`;
    case 'pending':
      return `Certificate not checked yet: ${host}`;
  }
}

function certificateSentence(cert: Certificate, zone: string): string {
  const host = hostLabel(cert);
  const expiresAt = alertMs(cert.expires_at);
  const until = expiresAt === null ? '' : describeMoment(expiresAt, noticeZone(zone));
  const issuer = cert.issuer ? `, issued by ${cert.issuer}` : '';
  const reason = (cert.last_error ?? 'unknown reason').replace(/\.$/, '');
  switch (cert.status) {
    case 'valid':
      return `The certificate of ${host} is valid until ${until}${issuer}.`;
    case 'expiring':
      return `The certificate of ${host} expires on ${until}${issuer}. Renew it before then.`;
    case 'expired':
      return `The certificate of ${host} expired on ${until}. Visitors now see a security warning.`;
    case 'invalid':
      return `The certificate of ${host} is not trusted: ${reason}.`;
    case 'unreachable':
      return `${host} could not be checked: ${reason}.`;
    case 'pending':
      return `${host} has not been checked yet.`;
  }
}

/**
 * A certificate check's words; `now` is when it was checked (an expiry is told in days from then),
 * its moment in the admin's `zone` with UTC beside it, as a server's notice tells its own.
 */
export function certificateWords(cert: Certificate, now: number, zone = 'UTC'): NoticeWords {
  if (cert.change === 'renewed') {
    return {
      title: `Certificate ${cert.status === 'valid' ? 'renewed' : 'replaced'}: ${hostLabel(cert)}`,
      description: `${hostLabel(cert)} serves a new certificate. ${certificateSentence(cert, zone)}`,
    };
  }
  return { title: certificateTitle(cert, now), description: certificateSentence(cert, zone) };
}

/** How often a watcher said it reports, as words after "every". */
function every(intervalSeconds: number | null): string {
  if (intervalSeconds === null) return 'hour (it did not say how often)';
  if (intervalSeconds === 1) return 'second';
  if (intervalSeconds % 3600 === 0) return intervalSeconds === 3600 ? 'hour' : `${intervalSeconds / 3600} hours`;
  if (intervalSeconds % 60 === 0) return intervalSeconds === 60 ? 'minute' : `${intervalSeconds / 60} minutes`;
  return `${intervalSeconds} seconds`;
}

/** The zone a notice tells its moments in: `zone`, or UTC for one the clock library does not know (a machine's odd setting), rather than lose the notice. */
export function noticeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** A watcher's name in a server's notice, quoted, when the server has several; nothing for its only watcher. */
function named(watcher: string | undefined): string {
  return watcher ? `"${terminalText(watcher, { oneLine: true })}" ` : '';
}

/*
 * A server's notice is read by the admin, in a popup, a chat or an email: its moments are in the
 * admin's zone with UTC beside them (as a monitor's are in its zone and the admin's), and a command
 * is named in plain quotes, since backticks are markup only in chat and show as they are elsewhere.
 */
function serverWords(reason: Exclude<NoticeReason, Certificate | { kind: 'other' }>, serverName: string, zone: string): NoticeWords {
  const where = `${serverName} (${reason.server_identifier})`;
  const moment = (ms: number) => describeMoment(ms, noticeZone(zone));
  switch (reason.kind) {
    case 'cron_changed': {
      const title = `Cron job ${reason.change} on ${serverName}`;
      const who = reason.username;
      // The command is what the crontab holds, kept as data; its words write out what would act on
      // the reader (a right-to-left override disguising a planted line, an escape sequence), so the
      // alert that is there to show a changed line shows it as it is.
      const command = terminalText(reason.command, { oneLine: true });
      if (reason.change === 'added') return { title, description: `A cron job of ${who} was added on ${where}: ${command}` };
      if (reason.change === 'removed') return { title, description: `A cron job of ${who} was removed from ${where}: ${command}` };
      const from = reason.previous_command ? ` from "${terminalText(reason.previous_command, { oneLine: true })}" to` : '';
      return { title, description: `A cron job of ${who} on ${where} was altered${from}: ${command}` };
    }
    case 'server_quiet':
      return {
        title: `${serverName} went quiet`,
        description:
          `The crontab watcher ${named(reason.watcher)}of ${where} has not reported since ${moment(alertMs(reason.last_report_at) ?? 0)}; ` +
          `it reports every ${every(reason.interval_seconds)}. Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?`,
      };
    case 'server_reporting': {
      const reportedAt = alertMs(reason.last_report_at) ?? 0;
      const silence = reportedAt - (alertMs(reason.previous_report_at) ?? reportedAt);
      return {
        title: `${serverName} reports again`,
        description: `The crontab watcher ${named(reason.watcher)}of ${where} reported again at ${moment(reportedAt)}, after ${describeDuration(silence)} without a report.`,
      };
    }
  }
}

/**
 * The title and description of a notice (any alert not about a monitor's run): `at` is when it was
 * raised, `server` its server; `zone` the admin's, which a certificate's or a server's notice tells its moments in.
 */
export function wordsOfNotice(reason: NoticeReason, alert: Pick<Alert, 'at' | 'server'>, zone = 'UTC'): NoticeWords {
  if (reason.kind === 'other') return { title: reason.title, description: reason.description };
  if (reason.kind === 'certificate') return certificateWords(reason, alertMs(alert.at) ?? 0, zone);
  return serverWords(reason, alert.server?.name ?? reason.server_identifier, zone);
}

/** wordsOfNotice of `alert`; null for a monitor's alert. */
export function noticeWords(alert: Pick<Alert, 'reason' | 'at' | 'server'>): NoticeWords | null {
  return isNoticeReason(alert.reason) ? wordsOfNotice(alert.reason, alert) : null;
}
