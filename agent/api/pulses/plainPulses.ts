import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { PULSE_CORS } from '../http/cors';
import { API_SECURITY_HEADERS } from '../http/securityHeaders';
import { answerFor } from '../http/errorMiddleware';
import { HttpError } from '../http/errors';
import { keyReusedAs422, pulseIntent, readPulseBody, receivedPulse, type PulseIntent } from './pulseRequest';
import type { PulseRecorder } from '../../engine/monitors/pulseBatch';
import type { Log } from '../../log/logger';

/*
 * The plain pulse, answered beside Koa. A job's pulse is the one request that comes by the
 * thousand, and going through Koa (its context objects, the middleware chain, the router) cost
 * about a third of its CPU time (docs/performance.md, "The pulse door"). So a GET, HEAD or POST of
 * /api/pulse/{token}[/start|/fail|/{exit code}][?rid=…] whose parts all read well is taken here:
 * read by the same functions (pulseRequest.ts), stored by the same recorder, answered with the
 * same bytes. Everything else goes to Koa untouched, whose routes (routes/pulses.ts) keep every
 * rule: preflights and other methods, a job's line (/api/pulse/key/…), a misspelt action or rid
 * (its 400 or 422), an encoded token, pulses held while the database is checked (holdWrites.ts),
 * and forwarded addresses behind a proxy. The host guard and the write hold need nothing here:
 * pulse paths answer any Host, and nothing is taken before writes are allowed.
 */

const PREFIX = '/api/pulse/';
/** /api/pulse/{token}[/{action}][/]: a token of URL-safe characters, which decodes to itself. */
const PLAIN_PATH = /^\/api\/pulse\/([A-Za-z0-9._~-]+)(?:\/([^/]+))?\/?$/;

// As name, value, name, value…: Node writes them as given without building a headers object first (a tenth of the answer's CPU).
const OK_HEADERS = Object.entries({ ...PULSE_CORS, ...API_SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '2' }).flat();

export interface PlainPulseOptions {
  recorder: PulseRecorder;
  clock: () => number;
  log: Log;
  /** Pulses are taken here only once this has resolved (the start-up check of the database). */
  writesAllowed?: Promise<void>;
  /** Behind a proxy what it forwards (the client's address, https) is Koa's to read (app.ts). */
  trustProxy?: boolean;
}

/** What this door takes of `request`: its token and intent, or null when Koa should answer it. */
function plainPulse(request: IncomingMessage, trustProxy: boolean): { token: string; intent: PulseIntent } | null {
  const { method, url = '' } = request;
  if ((method !== 'GET' && method !== 'HEAD' && method !== 'POST') || !url.startsWith(PREFIX)) return null;
  // Koa reads what a trusted proxy forwards: the client's address, and https (the answer then carries HSTS).
  if (trustProxy && (request.headers['x-forwarded-for'] !== undefined || request.headers['x-forwarded-proto'] !== undefined)) return null;
  const queryAt = url.indexOf('?');
  const match = PLAIN_PATH.exec(queryAt < 0 ? url : url.slice(0, queryAt));
  if (!match || match[1] === 'key') return null;
  try {
    const query = queryAt < 0 ? {} : parseQuery(url.slice(queryAt + 1));
    return { token: match[1], intent: pulseIntent(match[2], query, request.headers) };
  } catch (error) {
    if (error instanceof HttpError) return null; // Koa's route says the same, with the request's own words
    throw error;
  }
}

function answer(response: ServerResponse, status: number, headers: Record<string, string> | string[], body: string | undefined): void {
  response.writeHead(status, headers).end(body);
}

/** Records a pulse this door took, and answers it as Koa's route would. */
async function takePulse(request: IncomingMessage, response: ServerResponse, taken: { token: string; intent: PulseIntent }, options: PlainPulseOptions) {
  const { method = 'GET' } = request;
  try {
    const { body, truncated } = method === 'POST' ? await readPulseBody(request) : { body: '', truncated: false };
    const now = options.clock();
    const remoteAddress = request.socket.remoteAddress ?? '';
    const pulse = receivedPulse(taken.intent, { token: taken.token, method, remoteAddress, body, bodyTruncated: truncated }, now);
    if (!(await options.recorder.record(pulse, now).catch(keyReusedAs422))) throw HttpError.notFound('Monitor');
    answer(response, 200, OK_HEADERS, method === 'HEAD' ? undefined : 'OK');
  } catch (error) {
    const httpError = answerFor(error, `${method} ${request.url?.split('?')[0]}`, options.log);
    const json = JSON.stringify(httpError.body);
    const headers = { ...PULSE_CORS, ...API_SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(json)), ...httpError.headers };
    answer(response, httpError.status, headers, method === 'HEAD' ? undefined : json);
  }
}

/** A request listener that answers plain pulses itself and hands everything else to `next` (Koa's). */
export function withPlainPulses(next: RequestListener, options: PlainPulseOptions): RequestListener {
  let writesAllowed = options.writesAllowed === undefined;
  options.writesAllowed?.then(
    () => (writesAllowed = true),
    () => undefined, // refused: Koa's hold answers every pulse with the reason
  );
  return (request, response) => {
    const taken = writesAllowed ? plainPulse(request, options.trustProxy ?? false) : null;
    if (taken) void takePulse(request, response, taken, options);
    else next(request, response);
  };
}
