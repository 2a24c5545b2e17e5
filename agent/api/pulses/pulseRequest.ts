import type { ParsedUrlQuery } from 'node:querystring';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { HttpError } from '../http/errors';
import { validate } from '../http/validate';
import { queryParameters } from '../http/query';
import { pulseHeaders, pulseQuery } from '../../contract/pulses';
import { IdempotencyKeyReusedError, keptBody, PULSE_BODY_LIMIT, pulseAction, pulseTime, unreadBody } from '../../domain/monitors/pulseInput';
import type { PulseKind } from '../../domain/monitors/pulseEffect';
import type { ReceivedPulse } from '../../engine/monitors/pulses';

/*
 * What a pulse request says, read the same way by both of its doors: Koa's pulse routes
 * (routes/pulses.ts) and the plain pulse beside Koa (plainPulses.ts).
 */

/** Everything a pulse request says before its body: what it reports and how it is to be counted. */
export interface PulseIntent {
  kind: PulseKind;
  exitCode: number | null;
  rid: string | null;
  idempotencyKey: string | null;
  measuredDurationMs: number | null;
  /** X-Cronbeat-Sent-At as sent, read leniently by pulseTime. */
  sentAt: string | undefined;
  /** X-Cronbeat-Age-Ms: how long before it was sent its event happened, on the client's clock; null when not said. */
  ageMs: number | null;
}

/**
 * The intent of a pulse whose path ends in `actionSegment` (undefined, "start", "fail" or an exit
 * code), with this query and these headers; throws a 400 or 422 naming what is wrong.
 */
export function pulseIntent(actionSegment: string | undefined, query: ParsedUrlQuery, headers: IncomingHttpHeaders): PulseIntent {
  const action = pulseAction(actionSegment);
  if (!action) {
    throw new HttpError(400, 'The exit code must be an integer from 0 to 255, or the path must end in /start or /fail.', {
      exit_code: ['The exit code must be an integer from 0 to 255.'],
    });
  }
  const { rid } = validate(pulseQuery, queryParameters(query));
  const checked = validate(pulseHeaders, headers);
  const sentAt = headers['x-cronbeat-sent-at'];
  return {
    kind: action.kind,
    exitCode: action.exitCode,
    rid,
    idempotencyKey: checked['idempotency-key'],
    measuredDurationMs: checked['x-cronbeat-duration-ms'],
    sentAt: typeof sentAt === 'string' && sentAt !== '' ? sentAt : undefined,
    ageMs: checked['x-cronbeat-age-ms'],
  };
}

/** The pulse to record, once its body has arrived at `now`. */
export function receivedPulse(
  intent: PulseIntent,
  request: { token: string; method: string; remoteAddress: string; body: string; bodyTruncated: boolean },
  now: number,
): ReceivedPulse {
  // One literal, not a spread of the intent: this runs for every pulse.
  return {
    kind: intent.kind,
    exitCode: intent.exitCode,
    token: request.token,
    rid: intent.rid,
    at: pulseTime(now, intent.sentAt, intent.ageMs),
    method: request.method,
    remoteAddress: request.remoteAddress,
    body: request.body,
    bodyTruncated: request.bodyTruncated,
    idempotencyKey: intent.idempotencyKey,
    measuredDurationMs: intent.measuredDurationMs,
  };
}

/** The codings a pulse body may come under (Content-Encoding), as an HTTP client library may send it. */
const DECOMPRESSORS: Record<string, () => Transform> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };

/**
 * Reads the whole body but keeps only its first PULSE_BODY_LIMIT bytes. A compressed body is kept
 * decompressed, and inflated no further than that (a small body can inflate to gigabytes); one
 * under a coding that cannot be undone is kept as a line saying so. Either way the pulse counts,
 * unless the client went away before its body ended: that is refused, whatever its coding.
 */
export async function readPulseBody(request: IncomingMessage): Promise<{ body: string; truncated: boolean }> {
  const coding = (request.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') {
    const { head, total } = await keptHead(request, false);
    return keptBody(head, total);
  }
  const decompress = DECOMPRESSORS[coding];
  if (!decompress) {
    await keptHead(request, false);
    return unreadBody(coding, 'unknown');
  }
  const inflated = request.pipe(decompress());
  // Its errors reach the loop below while it runs; one after it (the rest of a broken body) must not end the agent.
  inflated.on('error', () => undefined);
  // A pipe passes on no error: a client gone before its body ended would leave the loop below waiting for ever.
  let cutOff: Error | null = null;
  const onCutOff = (error: Error) => {
    cutOff = error;
    inflated.destroy(error);
  };
  request.once('error', onCutOff);
  try {
    const { head, total } = await keptHead(inflated, true);
    return keptBody(head, total);
  } catch {
    // Refused as a plain body cut off is (errorMiddleware: a 400 for no one), never kept as a pulse.
    if (cutOff) throw cutOff;
    return unreadBody(coding, 'broken');
  } finally {
    request.off('error', onCutOff);
    // The rest of the request is read and dropped, so the connection can answer it and go on.
    request.unpipe(inflated);
    inflated.destroy();
    request.resume();
  }
}

/**
 * The first bytes of `stream` (at least PULSE_BODY_LIMIT of them when it has that many) and how
 * many it had in all; with `stopWhenKept`, read no further once it has more than that (total null).
 */
async function keptHead(stream: AsyncIterable<Buffer>, stopWhenKept: boolean): Promise<{ head: Buffer; total: number | null }> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (kept < PULSE_BODY_LIMIT) {
      chunks.push(chunk);
      kept += chunk.length;
    }
    if (stopWhenKept && total > PULSE_BODY_LIMIT) return { head: Buffer.concat(chunks), total: null };
  }
  return { head: Buffer.concat(chunks), total };
}

/** A different pulse under an Idempotency-Key stored already is the client's mistake: 422 naming the header. */
export function keyReusedAs422(error: unknown): never {
  if (error instanceof IdempotencyKeyReusedError) throw HttpError.validation({ 'idempotency-key': [error.message] });
  throw error;
}
