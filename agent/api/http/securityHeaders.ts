import type { Middleware } from 'koa';

/*
 * Headers every answer carries, the API's and its errors included, as OWASP's REST cheat sheet
 * asks: an answer opened as a page runs nothing (a policy of 'none', which the dashboard's own
 * files replace with theirs in routes/static.ts), is never framed, never sniffed into a script or
 * a page, and names no address of ours to a site it links to.
 */
export const API_SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/**
 * An answer to a request that came over https tells the browser to come only over https to this
 * host for a year (HSTS), so a link or a typed address in plain http cannot be intercepted. The
 * agent serves plain http itself: over https means through a TLS proxy it trusts (--trust-proxy)
 * saying so in X-Forwarded-Proto, which Koa reads only then (app.proxy). Not for subdomains: other
 * services of the domain are not ours to decide for.
 */
const HSTS_HEADER = { 'Strict-Transport-Security': 'max-age=31536000' };

/** First of the app's middleware, so errors and refusals (a wrong Host's 421) carry them too. */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set(API_SECURITY_HEADERS);
    if (ctx.secure) ctx.set(HSTS_HEADER);
    await next();
  };
}
