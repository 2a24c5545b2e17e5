import type { OutgoingRequest } from './messages';
import { clean, connectTimeout, type AttemptResult, type TransportOptions } from './attempt';
import { httpPost } from './httpSend';
import { sendEmail } from './kinds/email/send';

export { DEFAULT_CONNECT_TIMEOUT_MS, type AttemptResult, type TransportOptions } from './attempt';

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
    ...(outcome.retryAfter ? { retryAfter: outcome.retryAfter } : {}),
  };
}

/** Sends one request; never throws. */
export function send(request: OutgoingRequest, options: TransportOptions, secrets: string[]): Promise<AttemptResult> {
  return request.transport === 'http' ? sendHttp(request, options, secrets) : sendEmail(request, options, secrets);
}
