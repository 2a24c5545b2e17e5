import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import type { Context, Middleware } from 'koa';
import { compressedFileCache, compressible, type Encoding } from '../http/compressedFiles';
import { HttpError } from '../http/errors';

/*
 * The dashboard: the renderer's built files at "/", on the same origin as /api. Hashed assets
 * are cached for a year; everything else is revalidated; any other non-/api GET gets index.html
 * so deep links work.
 */

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** No inline script or style, nothing from elsewhere, never framed. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const immutable = 'public, max-age=31536000, immutable';

/**
 * Where the built dashboard is: `dist/renderer` next to the running bundle (dist/cronbeat.cjs,
 * dist/main/main.cjs) or above the source file when run from the repository. Null when not built.
 */
export function findRendererDir(start = moduleDir()): string | null {
  let dir = resolve(start);
  for (;;) {
    const candidates = basename(dir) === 'dist' ? [join(dir, 'renderer')] : [join(dir, 'dist', 'renderer')];
    for (const candidate of candidates) if (existsSync(join(candidate, 'index.html'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function moduleDir(): string {
  // __dirname in the CommonJS bundle; import.meta.url when run from source (vitest, tsx).
  return typeof __dirname === 'string' ? __dirname : dirname(new URL(import.meta.url).pathname);
}

/** In any letter case: `/API/…` names no route (they match in their own case) and gets the API's JSON 404, never the dashboard. */
function isApiPath(path: string): boolean {
  return /^\/api(?:\/|$)/i.test(path);
}

/*
 * A base URL ending in "/" makes "//api/pulse/…": the dashboard's 200 would tell a job's curl its
 * pulse arrived, and the monitor would fail later with no clue why. So an API path with a doubled
 * slash is a 404 that says so (a proxy that merges slashes, as nginx does by default, never sends one).
 */
const doubleSlash = () =>
  new HttpError(404, 'Not found: the path has a double slash ("//"). API paths start with a single "/api/": check the base URL for a trailing "/".');

/** The file under `root` a URL path names, or null when it escapes root or is malformed. */
function fileFor(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = resolve(root, `.${decoded}`);
  return file === root || file.startsWith(root + sep) ? file : null;
}

function regularFile(file: string | null) {
  if (!file) return null;
  try {
    const stats = statSync(file);
    return stats.isFile() ? stats : null;
  } catch {
    return null;
  }
}

/** The encoding to send a compressible file in: Brotli, else gzip, when the client takes it; null for none. */
function encodingFor(ctx: Context): Encoding | null {
  // Asked one at a time: browsers list gzip first with the same weight, and Brotli is smaller.
  return (['br', 'gzip'] as const).find((encoding) => ctx.acceptsEncodings(encoding) === encoding) ?? null;
}

/**
 * Serves the dashboard from `dir` (default: findRendererDir()). Registered after the API routers,
 * so /api paths never reach it.
 */
export function staticFiles(dir?: string | null): Middleware {
  let root = dir ? resolve(dir) : findRendererDir();
  const compressed = compressedFileCache();
  return async (ctx, next) => {
    if (ctx.path.includes('//') && isApiPath(ctx.path.replace(/\/{2,}/g, '/'))) throw doubleSlash();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path)) return next();
    root ??= findRendererDir(); // built after the agent started
    ctx.set(securityHeaders);
    if (!root || !existsSync(join(root, 'index.html'))) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'The Cronbeat dashboard is not built yet. Run `npm run build:renderer`, then reload.\n';
      return;
    }
    let file = fileFor(root, ctx.path);
    let stats = regularFile(file);
    if (!stats) {
      // A missing hashed asset is a real 404 (an old page after an upgrade), not the app.
      if (ctx.path.startsWith('/assets/') || extname(ctx.path) === '.map') return next();
      file = join(root, 'index.html');
      stats = regularFile(file);
      if (!stats) return next();
    }
    const isHashedAsset = ctx.path.startsWith('/assets/');
    ctx.set('Cache-Control', isHashedAsset ? immutable : 'no-cache');
    const extension = extname(file!).toLowerCase();
    ctx.type = contentTypes[extension] ?? 'application/octet-stream';
    ctx.lastModified = stats.mtime;
    const version = `${stats.size.toString(16)}-${stats.mtimeMs.toString(16)}`;
    const worthCompressing = compressible(extension, stats.size);
    if (worthCompressing) ctx.vary('Accept-Encoding');
    const encoding = worthCompressing ? encodingFor(ctx) : null;
    ctx.etag = `W/"${version}${encoding ? `-${encoding}` : ''}"`;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const body = encoding ? await compressed.get(file!, version, encoding).catch(() => null) : null;
    if (encoding && body) {
      ctx.set('Content-Encoding', encoding);
      ctx.length = body.length;
      if (ctx.method === 'GET') ctx.body = body;
      return;
    }
    // Sent as it is: not worth compressing, not asked for compressed, or unreadable just now.
    if (encoding) ctx.etag = `W/"${version}"`;
    ctx.length = stats.size;
    // HEAD: Koa sends the headers only; opening the file would leak a descriptor.
    if (ctx.method === 'GET') ctx.body = createReadStream(file!);
  };
}
