import type { Middleware } from 'koa';
import { HttpError } from './errors';

/** A request that may write: anything but GET and HEAD, and every pulse (a GET that records a run). */
export function mayWrite(method: string, path: string): boolean {
  return (method !== 'GET' && method !== 'HEAD') || path.startsWith('/api/pulse/');
}

/**
 * While the agent's start-up check of its database runs, reads are answered at once
 * and requests that may write wait for `writesAllowed`: a pulse sent then is recorded a moment
 * later, after the catch-up graces, never before the file is known to be whole. When the check
 * refuses the file, they get a 503 saying why (the agent is stopping).
 */
export function holdWrites(writesAllowed: Promise<void>): Middleware {
  let allowed = false;
  let refused: Error | undefined;
  writesAllowed.then(
    () => (allowed = true),
    (error: unknown) => (refused = error instanceof Error ? error : new Error(String(error))),
  );
  return async (ctx, next) => {
    if (!allowed && mayWrite(ctx.method, ctx.path)) {
      if (!refused) await writesAllowed.catch(() => undefined);
      if (refused) {
        // Answered, not thrown: the refusal is said once by whoever started the agent, not per request.
        const answer = new HttpError(503, refused.message);
        ctx.status = answer.status;
        ctx.body = answer.body;
        return;
      }
    }
    await next();
  };
}
