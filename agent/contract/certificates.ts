import { z } from 'zod';
import { ipVersion } from '../domain/net/ipAddress';
import { channelIdsField } from './channelIds';
import { optionalInteger, requiredString } from './fields';
import type { CertificateStatus } from '../domain/certificates/status';

/*
 * TLS certificates. A hostname is stored as the ASCII (punycode) DNS name, lowercase
 * and without a trailing dot, or as the IP address; a URL, a port or a path is refused.
 */

const DNS_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/**
 * The WHATWG host parser's ASCII form (punycode, lowercase), as node:url's domainToASCII gives it,
 * by the URL global that Node and browsers share; "" when it is no valid host.
 */
function domainToAscii(domain: string): string {
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return '';
  }
}

/** The hostname as stored, or null when it is neither an IP address nor a DNS name. */
export function normalizeHostname(raw: string): string | null {
  const unbracketed = raw.replace(/^\[(.*)\]$/, '$1');
  const version = ipVersion(unbracketed);
  if (version === 4) return unbracketed;
  if (version === 6) {
    // One form for one address (so "::1" and "0:0:0:0:0:0:0:1" are the same host); a zone id
    // names an interface of this machine, case and all, and stays as written.
    const [address, zone] = unbracketed.split('%');
    const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
    return zone === undefined ? canonical : `${canonical}%${zone}`;
  }
  // The URL host parser reads "a.com/x" as "a.com", and drops control characters at the end
  // ("a.com\u0000" as "a.com"), so refuse URL syntax and control characters first.
  // eslint-disable-next-line no-control-regex
  if (/[/\\?#@:%\s\u0000-\u001f\u007f]/.test(raw)) return null;
  const ascii = domainToAscii(raw.replace(/\.$/, ''));
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  // An all-digit last label is a mistyped IP address, never a DNS name.
  if (!labels.every((l) => DNS_LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1])) return null;
  return ascii;
}

export const certificateInput = z.object({
  hostname: requiredString('hostname', 255).transform((raw, context) => {
    const hostname = normalizeHostname(raw);
    if (hostname) return hostname;
    context.addIssue({
      code: 'custom',
      message: 'The hostname field must be a DNS name or an IP address, without scheme, port or path.',
    });
    return z.NEVER;
  }),
  port: optionalInteger('port', 1, 65_535, 443),
  warn_days: optionalInteger('warn_days', 1, 365, 14),
  channel_ids: channelIdsField(),
});

/** A certificate as the API shows it; scheduling state (reminders, next check) stays inside. */
export interface CertificateResource {
  id: number;
  company_id: number;
  hostname: string;
  port: number;
  warn_days: number;
  status: CertificateStatus;
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
