import type { IncomingMessage } from 'node:http';
import { networkProblem } from '../connection/networkProblem';
import { oneLine, redirectTarget } from '../connection/http';
import { opener, type OpenRequest } from '../connection/proxyTunnel';
import { describeError } from '../../domain/text/errorText';
import { retryAfterMs } from '../../domain/channels/delivery';

/** The longest an agent's (or its proxy's) Retry-After holds the follower back: it is watching for alerts. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** The agent sends a comment every 15 s; this long without a byte means the connection is gone. */
export const STREAM_SILENCE_MS = 45_000;
/**
 * The longest event read, in characters: the agent's largest event is a few kilobytes. Past it
 * the stream is dropped (and the follower connects again) rather than held in memory until it ends.
 */
export const MAX_EVENT_CHARS = 1024 * 1024;

/**
 * How a stream of /api/events ended: the connection dropped (worth retrying, unless `lasting`:
 * a certificate or scheme that waiting will not fix), the agent refused it, or what answered
 * is no Cronbeat agent (a 200 that is not an event stream, or a redirect: a web page, a captive portal).
 */
export type StreamEnd =
  | { kind: 'dropped'; message: string; lasting?: boolean; retryAfterMs?: number }
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'foreign'; contentType: string }
  /** A 3xx: something in front of the agent (a captive portal, a proxy's http→https) sends elsewhere; never followed with the key. */
  | { kind: 'redirected'; location: string };

export interface EventStreamOptions {
  baseUrl: string;
  token: string;
  /** Called with each event's JSON (`{"type":"ready"}` first). */
  onEvent(event: { type: string; [field: string]: unknown }): void;
  /** Ends the stream (resolving `dropped`) when aborted. */
  signal?: AbortSignal;
  silenceMs?: number;
}

/**
 * Reads GET /api/events (Server-Sent Events) until it ends; never throws. Over node:http(s), as
 * the rest of the client, so one code path serves the CLI and the desktop app.
 */
export async function readEventStream(options: EventStreamOptions): Promise<StreamEnd> {
  // Under the base's path, as every other request: an agent behind a proxy's sub-path (https://example.com/cronbeat).
  const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/api/events`);
  let open: OpenRequest;
  try {
    open = await opener(url);
  } catch (error) {
    return { kind: 'dropped', message: describeError(error), lasting: true };
  }
  return new Promise((resolve) => {
    let done = false;
    let silence: NodeJS.Timeout | undefined;
    const finish = (end: StreamEnd) => {
      if (done) return;
      done = true;
      clearTimeout(silence);
      options.signal?.removeEventListener('abort', onAbort);
      outgoing.destroy();
      resolve(end);
    };
    // An abort with an Error for reason (the follower's catch-up failed) says why the stream ended.
    const onAbort = () => {
      const reason: unknown = options.signal?.reason;
      finish({ kind: 'dropped', message: reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'stopped' });
    };
    const watchSilence = () => {
      if (done) return;
      clearTimeout(silence);
      silence = setTimeout(() => finish({ kind: 'dropped', message: `no word from the agent in ${(options.silenceMs ?? STREAM_SILENCE_MS) / 1000} s` }), options.silenceMs ?? STREAM_SILENCE_MS);
    };
    const headers = { authorization: `Bearer ${options.token}`, accept: 'text/event-stream', 'user-agent': 'cronbeat-follow/0.1' };
    const outgoing = open({ method: 'GET', headers }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        response.resume();
        finish({ kind: 'redirected', location: redirectTarget(url, response.headers.location) });
        return;
      }
      if (status !== 200) {
        // A refusal's body read slowly or never ended is bounded by the same silence.
        response.on('data', watchSilence);
        readRefusal(response).then((message) => {
          // 5xx, 429 and 408 pass (a restarting agent, a proxy whose upstream is down): retry those.
          if (status >= 500 || status === 429 || status === 408) {
            const wait = retryAfterMs(String(response.headers['retry-after'] ?? ''), Date.now());
            finish({ kind: 'dropped', message: `${status} ${message}`, ...(wait === null ? {} : { retryAfterMs: Math.min(wait, MAX_RETRY_AFTER_MS) }) });
          }
          else finish({ kind: 'refused', status, message });
        });
        return;
      }
      const contentType = String(response.headers['content-type'] ?? '');
      if (!/^text\/event-stream\b/i.test(contentType)) {
        response.resume();
        finish({ kind: 'foreign', contentType });
        return;
      }
      watchSilence();
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        watchSilence();
        buffer += chunk.replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).replace(/^ /, ''))
            .join('\n');
          if (!data) continue;
          try {
            options.onEvent(JSON.parse(data) as { type: string });
          } catch {
            // not an event of ours: skip it
          }
        }
        if (buffer.length > MAX_EVENT_CHARS) {
          finish({ kind: 'dropped', message: `the agent sent an event over ${MAX_EVENT_CHARS / 1024 / 1024} MB, more than a Cronbeat agent sends: not read` });
        }
      });
      response.on('end', () => finish({ kind: 'dropped', message: 'the agent closed the stream' }));
      // 'aborted' is Node's word for a connection cut mid-response (the agent died).
      response.on('error', (error) => finish({ kind: 'dropped', message: error.message === 'aborted' ? 'the connection was cut' : error.message }));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const problem = networkProblem(error);
      finish({ kind: 'dropped', message: problem.text, lasting: problem.lasting });
    });
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted) onAbort();
    // From the request on, not from the answer: a frozen agent, or a proxy or portal that takes
    // the connection and never answers, would otherwise hold the follower for ever.
    watchSilence();
    outgoing.end();
  });
}

/** The `message` of an error response, else its status text; one line, read from its first 4 KB. */
function readRefusal(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    response.setEncoding('utf8');
    // A refusal says what it means in its first few kilobytes; the rest is not waited for.
    response.on('data', (chunk: string) => {
      text += chunk;
      if (text.length >= 4096) {
        settle();
        response.destroy();
      }
    });
    const settle = () => {
      try {
        const message = (JSON.parse(text) as { message?: unknown }).message;
        if (typeof message === 'string') return resolve(oneLine(message));
      } catch {
        // not JSON
      }
      resolve(oneLine(response.statusMessage ?? ''));
    };
    response.on('end', settle);
    response.on('error', settle);
  });
}
