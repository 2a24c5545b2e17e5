import type { Middleware } from 'koa';
import { HttpError } from './errors';
import { isStorageFull } from '../../db/storageErrors';
import { isDatabaseDamaged, RESTORE_ADVICE } from '../../db/integrity';
import type { Log } from '../../log/logger';

/**
 * Turns every error into JSON. HttpError keeps its status; errors Koa raised on a request it
 * could not take (status 4xx, expose true) keep theirs, and so does a body the client cut off
 * (400, for no one: it has gone); a full disk is 507 and a damaged
 * database 503, each saying what to do; anything else is our fault: a 500 without details,
 * logged once.
 */
export function errorMiddleware(log: Log): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const httpError = answerFor(error, `${ctx.method} ${ctx.path}`, log);
      ctx.status = httpError.status;
      ctx.body = httpError.body;
      if (httpError.headers) ctx.set(httpError.headers);
    }
  };
}

/** What the client is told of `error` raised by `request` ("GET /api/…"); our own faults are logged, once. */
export function answerFor(error: unknown, request: string, log: Log): HttpError {
  const httpError = toHttpError(error);
  if (httpError.status === 500) log(`Internal error on ${request}: ${(error as Error)?.stack ?? error}`, { level: 'error' });
  else if (httpError.status > 500) log(`${request}: ${httpError.message} (${(error as { code?: string }).code})`, { level: 'error' });
  return httpError;
}

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const { status, expose, message, code } = (error ?? {}) as { status?: number; expose?: boolean; message?: string; code?: unknown };
  if (typeof status === 'number' && status >= 400 && status < 500 && expose) return new HttpError(status, message ?? 'Bad request.');
  // Node's word for a client that closed the connection before its body had all come: the client's doing, not ours.
  if (code === 'ECONNRESET' && message === 'aborted') return new HttpError(400, 'The request was cut off before its body had all arrived.');
  if (isStorageFull(error)) return diskFull();
  if (isDatabaseDamaged(error)) return databaseDamaged();
  return new HttpError(500, 'Server Error');
}

/** 507 Insufficient Storage: nothing was changed; reads keep working. */
const diskFull = () =>
  new HttpError(507, 'The disk is full: Cronbeat cannot write its database, so nothing was changed. Free some space and try again; reading still works.');

/** 503: the data asked for sits on a damaged part of the database file. */
const databaseDamaged = () =>
  new HttpError(503, `Part of Cronbeat's database is damaged and cannot be read. To repair it, stop Cronbeat and ${RESTORE_ADVICE}.`);
