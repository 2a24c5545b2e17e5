import { bounded } from '../../domain/channels/delivery';
import { redactValues } from '../../domain/channels/secrets';
import type { SmtpRefusal } from './kinds/kind';

/** One attempt's result: `ok` when the receiver accepted it; texts bounded and free of the channel's secrets. */
export interface AttemptResult {
  ok: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** A mail server's refusal, for the email kind to judge. */
  smtp?: SmtpRefusal;
  /** How long the receiver asked to be left alone (its Retry-After, or the service's own field), as it said it. */
  retryAfter?: string;
  /** The recipients a mail server deferred (4xx) while it took the others: a retry goes to them alone. */
  deferred?: string[];
  /** The kind judged the refusal permanent (kinds/index.ts): not retried. */
  permanent?: boolean;
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

export const connectTimeout = (options: TransportOptions) => Math.min(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, options.timeoutMs);

/** `text` with each of the channel's secrets (and their forms in URLs) redacted, then cut to the stored length. */
export function clean(text: string, secrets: string[]): string {
  return bounded(redactValues(text, secrets));
}
