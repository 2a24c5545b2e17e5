import nodemailer from 'nodemailer';
import { isPlainHttpAnswer } from '../../../../domain/net/plainHttp';
import { clean, connectTimeout, type AttemptResult, type TransportOptions } from '../../attempt';
import type { EmailSpec, SmtpRefusal } from '../kind';
import { describeError } from '../../../../domain/text/errorText';

/** An SMTP failure in words: a timeout said as one, and the socket's own cause after nodemailer's message. */
function smtpError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'No answer in time (timed out).';
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.message}${detail}`;
  }
  return describeError(error);
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

/** The reply a mail server refused a command with (nodemailer's responseCode, command and response); null for anything else. */
function smtpRefusal(error: unknown, secrets: string[]): SmtpRefusal | null {
  if (!(error instanceof Error)) return null;
  const { responseCode, command, response } = error as { responseCode?: unknown; command?: unknown; response?: unknown };
  if (typeof responseCode !== 'number' || typeof command !== 'string') return null;
  return { code: responseCode, command, response: clean(typeof response === 'string' ? response.trim() : '', secrets) };
}

interface RecipientRefusal {
  recipient?: unknown;
  response?: unknown;
  responseCode?: unknown;
}

/** "gone@example.com (550 5.1.1 No such user), …" */
const named = (errors: RecipientRefusal[]) =>
  errors
    .map((error) => {
      const said = typeof error.response === 'string' ? error.response.trim() : '';
      return `${String(error.recipient ?? 'a recipient')}${said ? ` (${said})` : ''}`;
    })
    .join(', ');

const some = (n: number, one: string) => (n === 1 ? `a ${one}` : `${n} ${one}s`);

/**
 * The recipients a mail server refused while it took the others (nodemailer's `rejectedErrors`):
 * those refused for good (5xx) in words, since the mail counts as sent and nobody would learn that
 * an address never got it; those deferred (4xx, "try again later", as greylisting answers) to be
 * sent again, to them alone, as a mail server retries a deferred recipient.
 */
function refusedRecipients(info: unknown): { words: string | null; deferred: string[] } {
  const errors = (info as { rejectedErrors?: unknown } | null)?.rejectedErrors;
  if (!Array.isArray(errors) || errors.length === 0) return { words: null, deferred: [] };
  const isDeferred = (error: RecipientRefusal) => typeof error.responseCode === 'number' && error.responseCode >= 400 && error.responseCode < 500 && typeof error.recipient === 'string';
  const deferred = (errors as RecipientRefusal[]).filter(isDeferred);
  const refused = (errors as RecipientRefusal[]).filter((error) => !isDeferred(error));
  const words = [
    deferred.length ? `The mail server deferred ${some(deferred.length, 'recipient')} (4xx: try again later): ${named(deferred)}. It took the others.` : '',
    refused.length ? `The mail server refused ${some(refused.length, 'recipient')}, who did not get this: ${named(refused)}.` : '',
  ];
  return { words: words.filter(Boolean).join(' '), deferred: deferred.map((error) => String(error.recipient)) };
}

/** Sends one mail over SMTP; never throws. */
export async function sendEmail(request: EmailSpec, options: TransportOptions, secrets: string[]): Promise<AttemptResult> {
  const { smtp } = request;
  if (request.recipients?.length === 0) {
    return { ok: true, responseStatus: null, responseBody: "Nothing left to send: the addresses the mail server deferred are no longer among the channel's recipients.", error: null };
  }
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
  // Given up on, the conversation is ended too: left to go on, it could hand the mail over after the
  // attempt was recorded failed, and the retry would send it twice.
  const abandon = new AbortController();
  try {
    // nodemailer's own timeouts cover each step; this covers the whole conversation.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandon.abort();
        reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' }));
      }, options.timeoutMs);
    });
    // A retry owed to some recipients only: the same mail (its To names them all), to them alone.
    const envelope = request.recipients ? { envelope: { from: request.mail.from, to: request.recipients } } : {};
    const info = await Promise.race([transport.sendMail({ ...request.mail, ...envelope, signal: abandon.signal }), timeout]);
    const refused = refusedRecipients(info);
    const answer = clean(refused.words ? `${refused.words} ${String(info.response ?? '')}`.trim() : String(info.response ?? ''), secrets);
    if (refused.deferred.length) return { ok: false, responseStatus: null, responseBody: answer, error: clean(refused.words ?? '', secrets), deferred: refused.deferred };
    return { ok: true, responseStatus: null, responseBody: answer, error: null };
  } catch (error) {
    const refusal = smtpRefusal(error, secrets);
    const words = clean(emailTlsWords(error, smtp.tls, `${smtp.host}:${port}`) ?? smtpError(error), secrets);
    return { ok: false, responseStatus: null, responseBody: null, error: words, ...(refusal ? { smtp: refusal } : {}) };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

