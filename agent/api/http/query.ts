import type { ParsedUrlQuery } from 'node:querystring';

/** `tag[]`, `page[0]`, `status[a]`: a parameter written as a list, the way PHP's and Rails' clients write one. */
const LISTED = /^([^[\]]+)\[[^\]]*\]/;

/**
 * A request's query as the routes read it. A parameter written as a list (`?tag[]=prod`) is that
 * parameter given as a list of its values, as Laravel reads it, so a route that takes it once
 * refuses it naming it (`The tag field must be given once.`), as it refuses `?tag=a&tag=b`.
 * Read under its written name, it was a parameter no route takes, ignored: every monitor
 * instead of those tagged prod, a silent page 1 for `?page[]=2`, a success for a pulse's
 * `?status[]=down`.
 */
export function queryParameters(query: ParsedUrlQuery): ParsedUrlQuery {
  // No prototype: a client may name a parameter __proto__ or constructor.
  const read: ParsedUrlQuery = Object.create(null) as ParsedUrlQuery;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const listed = LISTED.exec(key);
    const name = listed ? listed[1]! : key;
    const before = read[name];
    read[name] = listed || before !== undefined ? [...[before ?? []].flat(), ...[value].flat()] : value;
  }
  return read;
}
