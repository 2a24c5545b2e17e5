import { HttpError } from './errors';

/*
 * How many live event streams (GET /api/events) may be open at once. Each holds a socket, a file
 * descriptor of the agent's, for as long as the client likes; unbounded, one key (a read-only one
 * will do) opened streams until the agent had no descriptor left to accept a pulse with, and
 * every monitor failed for nothing. A dashboard holds one a tab, the desktop app and
 * `cronbeat notifications --follow` one each, so these leave room for any real use.
 */

/** Streams one key (a dashboard session, an API key) may hold. */
export const MAX_STREAMS_PER_KEY = 32;

/** Streams all the keys of one company may hold together. */
export const MAX_STREAMS_PER_COMPANY = 256;

/** What a refused client is told to wait: a slot frees only when a stream closes, so a short while. */
export const STREAM_RETRY_AFTER_S = 10;

/** Counts open streams by key and by company; a stream takes a slot of each, and gives both back once. */
export class StreamSlots {
  private readonly byKey = new Map<number, number>();
  private readonly byCompany = new Map<number, number>();

  /** Takes a slot for a stream of `tokenId` (of `companyId`), or throws a 429; returns the slot's release. */
  take(companyId: number, tokenId: number): () => void {
    if ((this.byKey.get(tokenId) ?? 0) >= MAX_STREAMS_PER_KEY) throw refused(`This key has ${MAX_STREAMS_PER_KEY} live event streams open, the most one key may hold`);
    if ((this.byCompany.get(companyId) ?? 0) >= MAX_STREAMS_PER_COMPANY) throw refused(`This company's keys have ${MAX_STREAMS_PER_COMPANY} live event streams open, the most they may hold together`);
    adjust(this.byKey, tokenId, 1);
    adjust(this.byCompany, companyId, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      adjust(this.byKey, tokenId, -1);
      adjust(this.byCompany, companyId, -1);
    };
  }
}

/** Adds `by` to `key`'s count, forgetting counts that reach 0 so the maps hold only open streams. */
function adjust(counts: Map<number, number>, key: number, by: number): void {
  const count = (counts.get(key) ?? 0) + by;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}

function refused(why: string): HttpError {
  return new HttpError(429, `${why}. Close one (a dashboard tab, a follower) or try again in ${STREAM_RETRY_AFTER_S} s.`, undefined, {
    'Retry-After': String(STREAM_RETRY_AFTER_S),
  });
}
