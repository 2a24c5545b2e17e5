import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { EnvelopeInput, PageRequest } from '../../domain/formats/pagination';
import { paginationEnvelopeText } from '../../domain/formats/paginationJson';
import type { PageQuery } from '../../contract/paging';

export const DEFAULT_PER_PAGE = 10;

/** The page asked for, and the query every page URL keeps (per_page, when the client chose one). */
export function pageRequestFrom(query: PageQuery): { request: PageRequest; keptQuery: Record<string, string> } {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return {
    request: { page: query.page ?? 1, perPage },
    keptQuery: query.per_page === undefined ? {} : { per_page: String(perPage) },
  };
}

/** The scheme, host and port the client used, from the request's own scheme and Host. */
export function requestOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}

/**
 * The absolute URL of the request without its query, from the request's own scheme and Host, and
 * without a trailing slash (which the routes take), as Laravel's `$request->url()` gives a page's `path`.
 */
export function requestUrl(ctx: Context): string {
  return `${requestOrigin(ctx)}${ctx.path.replace(/(?<=.)\/+$/, '')}`;
}

/**
 * Answers with one page in the spec's pagination envelope (serialised without building every link
 * as an object); the envelope of a list of very many pages is streamed, a part at a time.
 */
export function respondWithPage<T>(ctx: Context, input: EnvelopeInput<T>): void {
  const text = paginationEnvelopeText(input);
  ctx.type = 'application/json';
  ctx.body = typeof text === 'string' ? text : Readable.from(text, { objectMode: false, highWaterMark: 1 });
}
