import type { Context } from 'koa';
import { HttpError } from './errors';

export const JSON_BODY_LIMIT = 1024 * 1024;

function tooLarge(limit: number): HttpError {
  // Connection: close, so the rest of a huge body is never read.
  return new HttpError(413, `The request body is larger than ${limit} bytes.`, undefined, { Connection: 'close' });
}

/** Reads the whole body, refusing (413) one over `limit` before reading it when its length is declared. */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A body sent compressed (Content-Encoding, as a client library may do) is refused in words that
 * say so: read as it came it would be "not valid JSON", or, under a coding it did not really
 * apply, taken as if none had been named.
 */
function refuseContentCoding(ctx: Context): void {
  const coding = ctx.get('Content-Encoding').trim();
  if (coding === '' || coding.toLowerCase() === 'identity') return;
  throw new HttpError(415, `The request body is compressed (Content-Encoding: ${coding}): send the JSON uncompressed.`, undefined, {
    'Accept-Encoding': 'identity',
  });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body's text. JSON is UTF-8 whatever charset a Content-Type names (RFC 8259 gives it none);
 * bytes that are not (a Latin-1 "é" from an old PowerShell) are refused, never stored as "�".
 */
function utf8Text(ctx: Context, raw: Buffer): string {
  try {
    return strictUtf8.decode(raw);
  } catch {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(ctx.get('Content-Type'))?.[1];
    const said = charset && !/^utf-?8$/i.test(charset) ? ` (it says charset=${charset})` : '';
    throw new HttpError(400, `The request body is not valid UTF-8${said}: send the JSON in UTF-8.`);
  }
}

/** The body as a JSON object: {} when empty or white space, 400 when it is not JSON or not an object, 415 when compressed. */
export async function readJsonBody(ctx: Context): Promise<Record<string, unknown>> {
  const raw = await readRawBody(ctx, JSON_BODY_LIMIT);
  if (raw.length === 0) return {};
  refuseContentCoding(ctx);
  // A UTF-8 byte order mark (a file saved by Notepad or PowerShell) is not part of the JSON (RFC 8259 §8.1).
  const text = utf8Text(ctx, raw).replace(/^\uFEFF/, '');
  // JSON's white space alone (`echo | curl -d @-`) is no body, as Laravel reads it: the fields it lacks are named.
  if (/^[ \t\n\r]*$/.test(text)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
