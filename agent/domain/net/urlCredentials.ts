/*
 * A URL's user:pass@ as the words they stand for. Pure.
 *
 * People type a password into a URL as it is (`https://cron:50%off@host/`), and the URL parser
 * keeps a `%` not followed by two hex digits as written; decodeURIComponent throws on it, and a
 * send that throws never ends (its delivery would stay "sending"). So each run of valid escapes is
 * decoded and anything else is kept as written, as Python's unquote and curl read it.
 */

/** `part` (a URL's username or password) decoded: valid %XX escapes read, anything else kept as written. */
export function decodeUrlPart(part: string): string {
  return part.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
