/*
 * What a failed connection to an agent means, in words a person acts on, and whether waiting
 * can fix it. A refused connection or a missing host may be an agent or a network still coming
 * up; a certificate that is not trusted or a URL that says https:// to a plain-HTTP port stays
 * wrong until someone changes the URL or the trust, so a follower that never got in stops there.
 */

export interface NetworkProblem {
  text: string;
  /** Retrying will not help: the URL or the trust of its certificate must change. */
  lasting: boolean;
}

const CERTIFICATE_CODES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'a self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'a certificate signed by an authority this machine does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'a certificate signed by an authority this machine does not trust',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'a certificate signed by an authority this machine does not trust',
  CERT_HAS_EXPIRED: 'an expired certificate',
  CERT_NOT_YET_VALID: 'a certificate that is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'a certificate for another name',
};

const PASSING_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the agent running, at that port?',
  ENOTFOUND: 'no such host name',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'no network',
  ECONNRESET: 'the connection was reset',
};

/** The problem behind a node:http(s) request error. */
export function networkProblem(error: NodeJS.ErrnoException): NetworkProblem {
  const code = error.code ?? '';
  const certificate = CERTIFICATE_CODES[code];
  if (certificate) {
    return {
      text: `TLS: the agent showed ${certificate} (${code}); trust its authority with NODE_EXTRA_CA_CERTS=/path/ca.pem, or fix the URL`,
      lasting: true,
    };
  }
  if (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(error.message)) {
    return { text: `TLS: no TLS at that address (${code || 'wrong version number'}); is the URL http:// rather than https://?`, lasting: true };
  }
  const passing = PASSING_CODES[code];
  return { text: passing ? `${passing} (${code})` : code || error.message, lasting: false };
}
