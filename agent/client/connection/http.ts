import { isPlainHttpAnswer, plainHttpWords } from '../../domain/net/plainHttp';
import { terminalText } from '../../domain/text/controlCharacters';
import { describeError } from '../../domain/text/errorText';
import { proxyFor } from '../../domain/net/proxyEnv';
import { bareRequest } from './bareRequest';
import { opener } from './proxyTunnel';
import { networkProblem } from './networkProblem';

/** Every request to the agent gives up after this long, so a hung agent never holds a job. */
export const REQUEST_TIMEOUT_MS = 5_000;
/** Waits between attempts; one attempt more than there are delays. */
export const RETRY_DELAYS_MS = [250, 1_000];
/**
 * The most of an answer that is read (unless a request says otherwise): a page of 100
 * notifications is tens of kilobytes, and an answer read whole must not take all the memory of a
 * follower or a job because something else answers at the agent's address.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The most of the answer that is read (MAX_ANSWER_BYTES when absent); a longer one fails the request. */
  maxBytes?: number;
  /** Sending it twice is harmless (a pulse's Idempotency-Key): to an http:// agent it goes over a bare socket first (bareRequest.ts). */
  repeatable?: boolean;
}

/**
 * How a request ended. `unreachable` is worth retrying later (no connection, timeout, 408,
 * 429 or 5xx); `rejected` is the agent saying no (another 4xx) and will not change by retrying.
 */
export type HttpOutcome =
  | { kind: 'ok'; status: number; text: string; headers?: Record<string, string | string[] | undefined> }
  | { kind: 'rejected'; status: number; text: string; message: string; headers?: Record<string, string | string[] | undefined> }
  | { kind: 'unreachable'; message: string };

const USER_AGENT = 'cronbeat-cli/0.1';

/** One attempt, with the timeout. Never throws. */
export async function requestOnce(request: HttpRequest): Promise<HttpOutcome> {
  try {
    const response = await send(request);
    const { status, text } = response;
    if (status >= 200 && status < 300) return { kind: 'ok', status, text, headers: response.headers };
    const message = `${status} ${oneLine(messageOf(text) ?? response.statusText)}`.trim();
    if (status === 408 || status === 429 || status >= 500) {
      return { kind: 'unreachable', message: `${new URL(request.url).origin} answered ${message}` };
    }
    return { kind: 'rejected', status, text, message, headers: response.headers };
  } catch (error) {
    if (error instanceof AnswerTooLargeError) return { kind: 'unreachable', message: `${safeOrigin(request.url)} ${error.message}` };
    const cause = error instanceof Error ? ((error.cause ?? error) as { code?: string; message?: string }) : undefined;
    if (request.url.startsWith('https:') && isPlainHttpAnswer(cause?.code, cause?.message ?? '')) {
      return { kind: 'unreachable', message: `${plainHttpWords(safeOrigin(request.url))} (${cause?.code ?? 'wrong version number'})` };
    }
    // A certificate this machine does not trust stays so: said in words, with what to do.
    const problem = cause?.code ? networkProblem(cause as NodeJS.ErrnoException) : undefined;
    const why = problem?.lasting ? problem.text : describeNetworkError(error);
    return { kind: 'unreachable', message: `cannot reach ${safeOrigin(request.url)} (${why})` };
  }
}

class RequestTimeoutError extends Error {
  override name = 'TimeoutError';
}

class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
  constructor(maxBytes: number) {
    super(`sent an answer over ${maxBytes / 1024 / 1024} MB, more than a Cronbeat agent sends: not read`);
  }
}

/** The most of what an agent said that a message quotes: its own messages are a sentence or two. */
const MAX_QUOTED_CHARS = 500;

/**
 * What an agent said, as one line without control characters: it goes into a one-line message.
 * Cut past MAX_QUOTED_CHARS, saying by how much: an answer of megabytes would be one line of megabytes.
 */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const cut = line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}… (${(line.length - MAX_QUOTED_CHARS).toLocaleString('en-US')} more characters)` : line;
  return terminalText(cut, { oneLine: true });
}

/** Where a redirect leads, in full and on one line (a relative Location read against the request), for a message. */
export function redirectTarget(from: URL, location: string | undefined): string {
  if (!location) return 'nowhere (no Location)';
  try {
    return oneLine(new URL(location, from).href).slice(0, 300);
  } catch {
    return oneLine(location).slice(0, 300);
  }
}

/**
 * One request over node:http (node:https loaded only for https URLs; through the environment's
 * proxy when it names one, proxyTunnel.ts; a repeatable one to an http:// agent over a bare
 * socket first, bareRequest.ts), not fetch: loading
 * fetch's implementation took longer than the rest of `cronbeat run` together. A fresh
 * connection each time (agent: false), so nothing keeps the process alive afterwards.
 */
async function send(request: HttpRequest): Promise<{ status: number; statusText: string; text: string; headers: Record<string, string | string[] | undefined> }> {
  const url = new URL(request.url);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...request.headers };
  if (body) headers['content-length'] = String(body.length);
  const maxBytes = request.maxBytes ?? MAX_ANSWER_BYTES;
  let timeoutMs = REQUEST_TIMEOUT_MS;
  if (request.repeatable && url.protocol === 'http:' && !proxyFor(url, process.env)) {
    const began = process.hrtime.bigint();
    const answer = await bareRequest(url, request.method, headers, body, { maxBytes, timeoutMs, timedOut: () => new RequestTimeoutError() });
    if (answer !== 'again') return answer;
    // Asked again within what is left of the request's time: it still gives up after REQUEST_TIMEOUT_MS.
    timeoutMs = Math.max(1, REQUEST_TIMEOUT_MS - Number(process.hrtime.bigint() - began) / 1e6);
  }
  const open = await opener(url);
  return new Promise((resolve, reject) => {
    const outgoing = open({ method: request.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const tooLarge = () => {
        fail(new AnswerTooLargeError(maxBytes));
        outgoing.destroy();
      };
      response.on('error', fail);
      if (Number(response.headers['content-length']) > maxBytes) return tooLarge();
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) tooLarge();
        else chunks.push(chunk);
      });
      response.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', text, headers: response.headers });
      });
    });
    const timer = setTimeout(() => outgoing.destroy(new RequestTimeoutError()), timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      reject(error);
    }
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

/**
 * requestOnce, retried with backoff while the outcome is `unreachable`. Never throws. A function
 * gives each attempt its own request (headers that depend on when it leaves).
 */
export async function requestWithRetry(request: HttpRequest | (() => HttpRequest), delays = RETRY_DELAYS_MS): Promise<HttpOutcome> {
  const attempt = typeof request === 'function' ? request : () => request;
  let outcome = await requestOnce(attempt());
  for (const delay of delays) {
    if (outcome.kind !== 'unreachable') break;
    await new Promise((resolve) => setTimeout(resolve, delay));
    outcome = await requestOnce(attempt());
  }
  return outcome;
}

/** The `message` of a Laravel-style JSON error body, when there is one. */
function messageOf(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
      return (parsed as { message: string }).message;
    }
  } catch {
    // not JSON: the plain text, if short, says enough
  }
  const trimmed = text.trim();
  return trimmed && trimmed.length <= 200 ? trimmed : undefined;
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  }
  // node:http puts the code (ECONNREFUSED…) on the error itself; fetch put it on its cause.
  const cause = error instanceof Error ? ((error.cause ?? error) as { code?: string; message?: string }) : undefined;
  return oneLine(cause?.code ?? cause?.message ?? describeError(error));
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
