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

/** The body as a JSON object: {} when empty, 400 when it is not JSON or not an object. */
export async function readJsonBody(ctx: Context): Promise<Record<string, unknown>> {
  const raw = await readRawBody(ctx, JSON_BODY_LIMIT);
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
