import { isIP } from 'node:net';
import * as tls from 'node:tls';
import type { X509Certificate } from 'node:crypto';
import type { CertificateDetails, CheckObservation } from '../../domain/certificates/status';

export interface CheckerOptions {
  /** How long connect plus TLS handshake may take before the host counts as unreachable. */
  timeoutMs?: number;
  /**
   * Extra trusted roots (PEM), on top of the system's. For private CAs, and how the tests
   * hand over their own root.
   */
  extraCa?: string | string[];
}

export interface CertificateCheck {
  check(hostname: string, port: number, signal?: AbortSignal): Promise<CheckObservation>;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

/**
 * Opens one TLS connection (SNI = hostname), reads the leaf certificate and the verification
 * verdict (chain against the trusted roots, then hostname), and closes. Never rejects: every
 * failure becomes an unreachable observation with a readable reason.
 */
export class TlsCertificateChecker implements CertificateCheck {
  private readonly timeoutMs: number;
  /** Built once: parsing a few hundred roots for every connection would cost more than the check. */
  private readonly secureContext: tls.SecureContext;

  constructor(options: CheckerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    const extra = options.extraCa === undefined ? [] : [options.extraCa].flat();
    const roots = machineRoots();
    // Without anything to add on an older Node, its default store (which honours NODE_EXTRA_CA_CERTS) is it.
    const ca = roots || extra.length ? [...(roots ?? tls.rootCertificates), ...extra] : undefined;
    this.secureContext = tls.createSecureContext({ ca });
  }

  check(hostname: string, port: number, signal?: AbortSignal): Promise<CheckObservation> {
    return new Promise((resolve) => {
      let hostnameError: Error | undefined;
      const socket = tls.connect({
        host: hostname,
        port,
        servername: isIP(hostname) ? undefined : hostname, // SNI must not carry an IP address
        secureContext: this.secureContext,
        rejectUnauthorized: false, // we judge the verdict ourselves instead of failing the connection
        checkServerIdentity: (host, cert) => (hostnameError = tls.checkServerIdentity(host, cert)),
      });
      let settled = false;
      const finish = (observation: CheckObservation) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.destroy();
        resolve(observation);
      };
      const timer = setTimeout(() => finish(unreachable(timeoutMessage(socket, this.timeoutMs))), this.timeoutMs);
      const onAbort = () => finish(unreachable('Check cancelled'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort);
      socket.once('error', (error) => finish(unreachable(describeSocketError(error))));
      socket.once('close', () => finish(unreachable('Connection closed during the TLS handshake')));
      socket.once('secureConnect', () => {
        const peer = socket.getPeerX509Certificate();
        if (!peer) return finish(unreachable('The server sent no certificate'));
        finish({ reachable: true, certificate: readDetails(peer), verifyError: verdict(socket, hostnameError) });
      });
    });
  }
}

function unreachable(error: string): CheckObservation {
  return { reachable: false, error };
}

function timeoutMessage(socket: tls.TLSSocket, timeoutMs: number): string {
  const seconds = `${timeoutMs / 1000} s`;
  // `connecting` is still true until TCP is up; after that we were waiting for the handshake.
  return socket.connecting ? `Connection timed out after ${seconds}` : `No TLS handshake within ${seconds} (not a TLS server?)`;
}

function verdict(socket: tls.TLSSocket, hostnameError: Error | undefined): { code: string; message: string } | null {
  if (socket.authorized) return null;
  const code = String(socket.authorizationError ?? 'UNKNOWN');
  // Node keeps only the code of a hostname mismatch; the message naming the altnames is ours.
  return { code, message: code === 'ERR_TLS_CERT_ALTNAME_INVALID' && hostnameError ? mismatchWords(hostnameError) : code };
}

/** The names shown of a certificate for other names; the rest are counted. */
const NAMES_SHOWN = 5;

/** "the certificate is for example.com, *.example.com, not shop.example": Node's own sentence names OpenSSL's fields. */
function mismatchWords(hostnameError: Error & { host?: string; cert?: tls.PeerCertificate }): string {
  const { host, cert } = hostnameError;
  const altNames = (cert?.subjectaltname ?? '')
    .split(', ')
    .map((name) => name.replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean);
  const names = altNames.length ? altNames : [cert?.subject?.CN ?? []].flat();
  if (!names.length || !host) return hostnameError.message;
  const more = names.length - NAMES_SHOWN;
  const shown = more > 0 ? `${names.slice(0, NAMES_SHOWN).join(', ')} and ${more} more name${more === 1 ? '' : 's'}` : names.join(', ');
  return `the certificate is for ${shown}, not ${host}`;
}

const SOCKET_ERROR_TEXT: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by the server',
  ENOTFOUND: 'Host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed (temporary)',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  ETIMEDOUT: 'Connection timed out',
};

function describeSocketError(error: NodeJS.ErrnoException & { reason?: string }): string {
  const code = error.code ?? '';
  if (SOCKET_ERROR_TEXT[code]) return SOCKET_ERROR_TEXT[code];
  // OpenSSL's answer to a first record that is not TLS: HTTP's 400, an SSH or SMTP banner.
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER') return 'Not a TLS server: it answered in another protocol (plain HTTP?)';
  // OpenSSL's message carries a memory address, its source file and a newline; its reason is the words.
  if (code.startsWith('ERR_SSL_') || /ssl|tls/i.test(error.message)) {
    return `TLS handshake failed: ${error.reason ?? error.message.trim()}`;
  }
  return error.message || code || 'Connection failed';
}

function readDetails(cert: X509Certificate): CertificateDetails {
  return {
    validFrom: Date.parse(cert.validFrom),
    expiresAt: Date.parse(cert.validTo),
    issuer: distinguishedName(cert.issuer),
    subject: distinguishedName(cert.subject),
    fingerprintSha256: cert.fingerprint256,
  };
}

/** Node gives "C=US\nO=Let's Encrypt\nCN=R3"; show it the way browsers do: "CN=R3, O=Let's Encrypt, C=US". */
function distinguishedName(multiline: string): string {
  return multiline.split('\n').filter(Boolean).reverse().join(', ');
}

type CaGetter = (type: 'default' | 'system') => string[];

/**
 * The roots a browser on this machine would trust, as far as this Node can tell: its bundled
 * Mozilla roots and NODE_EXTRA_CA_CERTS, plus the operating system's store where Node can read it
 * (getCACertificates, Node 22.15+, as in the desktop app). Null on an older Node, which can only
 * use its default store.
 */
function machineRoots(): string[] | null {
  const getCACertificates = (tls as unknown as { getCACertificates?: CaGetter }).getCACertificates;
  if (!getCACertificates) return null;
  try {
    return [...new Set([...getCACertificates('default'), ...getCACertificates('system')])];
  } catch {
    return getCACertificates('default'); // no readable system store
  }
}
