import nodemailer from 'nodemailer';
import { isPlainHttpAnswer } from '../../domain/net/plainHttp';
import type { OutgoingRequest } from './messages';
import { bounded } from '../../domain/channels/delivery';
import { redactValues } from '../../domain/channels/secrets';
import { httpPost } from './httpSend';

/** One attempt's result: `ok` when the receiver accepted it; texts bounded and free of the channel's secrets. */
export interface AttemptResult {
  ok: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

export interface TransportOptions {
  /** Every send gives up after this long (connect, redirects, answer and body together). */
  timeoutMs: number;
  /** Until the connection is open; at most timeoutMs. */
  connectTimeoutMs?: number;
  /** Extra trusted roots for SMTP over TLS (a private CA). */
  trustedCa?: string[];
}

/** How long a connection may take to open, unless the agent says otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

const connectTimeout = (options: TransportOptions) => Math.min(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, options.timeoutMs);

/** `text` with each of the channel's secrets (and their forms in URLs) redacted, then cut to the stored length. */
function clean(text: string, secrets: string[]): string {
  return bounded(redactValues(text, secrets));
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'No answer in time (timed out).';
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.message}${detail}`;
  }
  return String(error);
}

/**
 * A `tls` setting the mail server does not speak, in words naming the setting to pick: nodemailer
 * says "Error upgrading connection with STARTTLS" or OpenSSL's "wrong version number".
 */
function emailTlsWords(error: unknown, tls: string, server: string): string | null {
  if (!(error instanceof Error)) return null;
  const { code, command, response } = error as { code?: string; command?: string; response?: unknown };
  if (tls === 'starttls' && code === 'ETLS' && command === 'STARTTLS') {
    const said = typeof response === 'string' && response.trim() ? ` (it answered "${response.trim()}")` : '';
    return `The mail server at ${server} refused STARTTLS${said}: set the channel's tls to "tls" if it takes TLS from the first byte (usually port 465), or to "none" if it speaks only plain SMTP (then only inside a network you trust).`;
  }
  if (tls === 'tls' && isPlainHttpAnswer(code, error.message)) {
    return `The mail server at ${server} does not speak TLS from the first byte (${code ?? 'wrong version number'}): set the channel's tls to "starttls" (usually port 587), or to "none" if it speaks only plain SMTP.`;
  }
  return null;
}

async function sendHttp(request: Extract<OutgoingRequest, { transport: 'http' }>, options: TransportOptions, secrets: string[]): Promise<AttemptResult> {
  const outcome = await httpPost(request, { connectMs: connectTimeout(options), totalMs: options.timeoutMs });
  if (outcome.kind === 'failed') {
    return { ok: false, responseStatus: outcome.status, responseBody: outcome.text === null ? null : clean(outcome.text, secrets), error: clean(outcome.error, secrets) };
  }
  const body = clean(outcome.text, secrets);
  if (outcome.status >= 200 && outcome.status < 300) return { ok: true, responseStatus: outcome.status, responseBody: body, error: null };
  return {
    ok: false,
    responseStatus: outcome.status,
    responseBody: body,
    error: clean(`The receiver answered HTTP ${outcome.status}${body ? `: ${body}` : '.'}`, secrets),
  };
}

async function sendEmail(request: Extract<OutgoingRequest, { transport: 'email' }>, options: TransportOptions, secrets: string[]): Promise<AttemptResult> {
  const { smtp } = request;
  const port = smtp.port ?? (smtp.tls === 'tls' ? 465 : smtp.tls === 'starttls' ? 587 : 25);
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port,
    secure: smtp.tls === 'tls',
    requireTLS: smtp.tls === 'starttls',
    ignoreTLS: smtp.tls === 'none',
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    connectionTimeout: connectTimeout(options),
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    tls: options.trustedCa?.length ? { ca: options.trustedCa } : undefined,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    // nodemailer's own timeouts cover each step; this covers the whole conversation.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' })), options.timeoutMs);
    });
    const info = await Promise.race([transport.sendMail(request.mail), timeout]);
    return { ok: true, responseStatus: null, responseBody: clean(String(info.response ?? ''), secrets), error: null };
  } catch (error) {
    return { ok: false, responseStatus: null, responseBody: null, error: clean(emailTlsWords(error, smtp.tls, `${smtp.host}:${port}`) ?? describeError(error), secrets) };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

/** Sends one request; never throws. */
export function send(request: OutgoingRequest, options: TransportOptions, secrets: string[]): Promise<AttemptResult> {
  return request.transport === 'http' ? sendHttp(request, options, secrets) : sendEmail(request, options, secrets);
}
