import type { Middleware } from 'koa';
import { HttpError } from './errors';

/**
 * Turns every error into JSON. HttpError keeps its status; errors Koa raised on a request it
 * could not take (status 4xx, expose true) keep theirs; anything else is our fault: a 500
 * without details, logged once.
 */
export function errorMiddleware(log: (line: string) => void): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const httpError = toHttpError(error);
      if (httpError.status >= 500) log(`Internal error on ${ctx.method} ${ctx.path}: ${(error as Error)?.stack ?? error}`);
      ctx.status = httpError.status;
      ctx.body = httpError.body;
      if (httpError.headers) ctx.set(httpError.headers);
    }
  };
}

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const { status, expose, message } = (error ?? {}) as { status?: number; expose?: boolean; message?: string };
  if (typeof status === 'number' && status >= 400 && status < 500 && expose) return new HttpError(status, message ?? 'Bad request.');
  return new HttpError(500, 'Server Error');
}
