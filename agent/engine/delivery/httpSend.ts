import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { isPlainHttpAnswer, plainHttpWords } from '../../domain/net/plainHttp';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { redirectRule } from '../../domain/net/redirects';
import { decodeUrlPart } from '../../domain/net/urlCredentials';

/*
 * One HTTP POST to a receiver, the way a careful client sends an alert:
 * a connect timeout and a total timeout; redirects followed by hand (only 307 and 308, which keep
 * the method and body, and never with credentials to another origin); at most ANSWER_PREFIX_BYTES
 * of the answer read, decompressed, and the rest of the stream cancelled.
 */

/** How much of an answer is read (after decompression): enough for an error text; the rest is never read. */
export const ANSWER_PREFIX_BYTES = 8 * 1024;
/** How many redirects one send follows. */
export const MAX_REDIRECTS = 5;
/** Headers that carry a credential of the channel: never sent to another origin than the one configured. */
const CREDENTIAL_HEADERS = ['authorization', 'x-cronbeat-signature'];

export interface HttpPost {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface HttpTimeouts {
  /** Until the connection is open (name lookup included). */
  connectMs: number;
  /** The whole send: every hop, the answer's status and what is read of its body. */
  totalMs: number;
}

export type HttpOutcome =
  | { kind: 'answered'; status: number; text: string; retryAfter: string | null }
  | { kind: 'failed'; status: number | null; text: string | null; error: string };

class SendError extends Error {}

/** A URL's `user:pass@` as a Basic Authorization header (and the URL without it). */
function splitCredentials(url: URL): { url: URL; authorization: string | null } {
  if (!url.username && !url.password) return { url, authorization: null };
  const user = decodeUrlPart(url.username);
  const password = decodeUrlPart(url.password);
  const bare = new URL(url);
  bare.username = '';
  bare.password = '';
  return { url: bare, authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

interface Exchange {
  status: number;
  location: string | null;
  text: string;
  retryAfter: string | null;
}

/**
 * One request and its answer's status and first ANSWER_PREFIX_BYTES; the connection is closed
 * after that. When `deadline` fires once the status is in, the text read so far is the answer.
 */
function exchange(url: URL, headers: OutgoingHttpHeaders, body: string, timeouts: HttpTimeouts, deadline: AbortSignal): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    let status = 0;
    let location: string | null = null;
    let retryAfter: string | null = null;
    let stream: Readable | undefined;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      deadline.removeEventListener('abort', onDeadline);
      request.destroy();
      stream?.destroy();
      if (error && status === 0) reject(error);
      else resolve({ status, location, retryAfter, text: Buffer.concat(chunks).subarray(0, ANSWER_PREFIX_BYTES).toString('utf8') });
    };
    const onDeadline = () => finish(new SendError('No answer in time (timed out).'));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, agent: false });
    const connectTimer = setTimeout(
      () => finish(new SendError(`Could not connect in time (no connection within ${Math.round(timeouts.connectMs / 1000)} s).`)),
      timeouts.connectMs,
    );
    request.once('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    request.on('error', (error) => finish(error));
    // A 101 to a POST that asked for no upgrade: Node hands over the socket instead of an answer, which would wait for the deadline.
    request.on('upgrade', (response: IncomingMessage, socket: { destroy(): void }) => {
      socket.destroy();
      status = response.statusCode ?? 101;
      finish();
    });
    request.on('response', (response) => {
      clearTimeout(connectTimer);
      status = response.statusCode ?? 0;
      location = typeof response.headers.location === 'string' ? response.headers.location : null;
      retryAfter = typeof response.headers['retry-after'] === 'string' ? response.headers['retry-after'] : null;
      if (status >= 300 && status < 400) return finish();
      stream = decoded(response);
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= ANSWER_PREFIX_BYTES) finish();
      });
      stream.on('end', () => finish());
      // A body cut short or undecodable: its status stands, with the text read so far.
      stream.on('error', () => finish());
      response.on('error', () => finish());
    });
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener('abort', onDeadline);
    request.end(body);
  });
}

function describe(error: unknown, url: URL | null): string {
  if (error instanceof SendError) return error.message;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (url?.protocol === 'https:' && isPlainHttpAnswer(code, error.message)) return `${plainHttpWords(url.toString())} (${code ?? 'wrong version number'})`;
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** POSTs `post`, following what may be followed; never throws. */
export async function httpPost(post: HttpPost, timeouts: HttpTimeouts): Promise<HttpOutcome> {
  const deadline = AbortSignal.timeout(timeouts.totalMs);
  let url: URL | null = null;
  try {
    const configured = splitCredentials(new URL(post.url));
    url = configured.url;
    let headers: Record<string, string> = { ...post.headers };
    if (configured.authorization) headers.Authorization = configured.authorization;
    let credentialsDropped = false;
    for (let hop = 0; ; hop++) {
      const answer = await exchange(url, headers, post.body, timeouts, deadline);
      if (answer.status < 300 || answer.status >= 400) return { kind: 'answered', status: answer.status, text: answer.text, retryAfter: answer.retryAfter };
      const rule = redirectRule({ status: answer.status, location: answer.location, from: url, configured: configured.url, hop, maxHops: MAX_REDIRECTS });
      if (rule.kind === 'refuse') return { kind: 'failed', status: answer.status, text: null, error: rule.error };
      if (!rule.keepCredentials && !credentialsDropped) {
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name.toLowerCase())));
        credentialsDropped = true;
      }
      url = rule.to;
    }
  } catch (error) {
    return { kind: 'failed', status: null, text: null, error: describe(error, url) };
  }
}
