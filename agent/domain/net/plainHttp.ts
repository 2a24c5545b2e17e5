/*
 * An https:// URL whose server speaks plain http: TLS reads the server's "HTTP/1.1 400 …" as a
 * record of an unknown version, and Node says EPROTO "wrong version number", which names
 * neither the URL nor the fix.
 */

/** Whether a connection error is TLS meeting a plain-http server. */
export function isPlainHttpAnswer(code: string | undefined, message: string): boolean {
  return code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(message) || (code === 'EPROTO' && /ssl|tls/i.test(message));
}

/** "the server at https://h:8080 speaks plain http, not https: use http://h:8080/hook", for an https `url`. */
export function plainHttpWords(url: string): string {
  let origin = url;
  let fixed = url.replace(/^https:/i, 'http:');
  try {
    const parsed = new URL(url);
    // Credentials in a URL are secrets: the words go into logs and the dashboard.
    parsed.username = '';
    parsed.password = '';
    origin = parsed.origin;
    parsed.protocol = 'http:';
    fixed = parsed.toString();
  } catch {
    // Not a URL after all: say it as given.
  }
  return `the server at ${origin} speaks plain http, not https: use ${fixed}`;
}
