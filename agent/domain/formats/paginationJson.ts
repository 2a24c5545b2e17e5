import { envelopeFields, NEXT_LABEL, paginationEnvelope, pageUrlPrefix, PREVIOUS_LABEL, type EnvelopeInput } from './pagination';

/*
 * The pagination envelope as JSON text, exactly JSON.stringify(paginationEnvelope(input)), made
 * without building the links list as objects. The spec wants one link per page: a million rows
 * at 10 a page is 100,000 links and 10 MB, and making and serialising those objects on every
 * request cost far more than the query. The per-page entries are kept as one string per list
 * (URL prefix and page count) with the position of each entry's `active` flag, so a page costs
 * a slice and a concatenation.
 *
 * A list of more pages comes in parts instead: a million rows at one a page made one string of
 * over 100 MB, held by the agent until the next list, built while it answered nothing else; and
 * past a few million entries (fewer with a long query kept in every URL) no string can hold it,
 * so the request failed. In parts, its memory is one part at a time and others are answered
 * between parts.
 */

/**
 * The longest links list made as one string and remembered: 16 million characters, about 170,000
 * pages with the agent's usual URLs (1.7 million rows at the default 10 a page).
 */
export const MOST_LINK_CHARACTERS_IN_ONE_STRING = 16_000_000;
/** More than any link adds to its URL prefix: the JSON around it, its number twice and a comma. */
const LINK_CHARACTERS_BESIDE_PREFIX = 60;
/** Page links per part of a longer list: about a megabyte. */
const PAGES_PER_PART = 10_000;

interface PageEntries {
  key: string;
  /** The entries of pages 1..lastPage, comma-separated, every `active` false. */
  json: string;
  /** Where page n's `false` starts, at index n - 1. */
  activeAt: Uint32Array;
}

/** The most recent list only: enough for paging through one list, and it bounds the memory held. */
let remembered: PageEntries | null = null;

/** The opening of page n's link, up to its `active` value; `quotedPrefix` is the URL prefix as a JSON string without its closing quote. */
const linkHead = (quotedPrefix: string, n: number) => `{"url":${quotedPrefix}${n}","label":"${n}","active":`;

function pageEntries(prefix: string, lastPage: number): PageEntries {
  const key = `${lastPage}\n${prefix}`;
  if (remembered?.key === key) return remembered;
  const quotedPrefix = JSON.stringify(prefix).slice(0, -1);
  const parts: string[] = new Array(lastPage);
  const activeAt = new Uint32Array(lastPage);
  let length = 0;
  for (let n = 1; n <= lastPage; n++) {
    const head = `${n > 1 ? ',' : ''}${linkHead(quotedPrefix, n)}`;
    activeAt[n - 1] = length + head.length;
    parts[n - 1] = `${head}false}`;
    length += head.length + 6;
  }
  remembered = { key, json: parts.join(''), activeAt };
  return remembered;
}

/** The links of pages `from`..`to`, each preceded by a comma, `page`'s active. */
function pageLinks(quotedPrefix: string, from: number, to: number, page: number): string {
  const parts: string[] = new Array(to - from + 1);
  for (let n = from; n <= to; n++) parts[n - from] = `,${linkHead(quotedPrefix, n)}${n === page ? 'true' : 'false'}}`;
  return parts.join('');
}

/**
 * JSON.stringify(paginationEnvelope(input)), fast for lists of many pages: one string when its
 * links fit MOST_LINK_CHARACTERS_IN_ONE_STRING, else parts to be sent one after the other.
 */
export function paginationEnvelopeText<T>(input: EnvelopeInput<T>): string | Iterable<string> {
  const prefix = pageUrlPrefix(input.path, input.keptQuery);
  if (prefix === null) return JSON.stringify(paginationEnvelope(input));
  const fields = envelopeFields(input);
  const { current_page: page, last_page: lastPage } = fields;
  const previous = JSON.stringify({ url: fields.prev_page_url, label: PREVIOUS_LABEL, active: false });
  const next = JSON.stringify({ url: fields.next_page_url, label: NEXT_LABEL, active: false });
  const head = JSON.stringify({
    current_page: fields.current_page,
    data: fields.data,
    first_page_url: fields.first_page_url,
    from: fields.from,
    last_page: fields.last_page,
    last_page_url: fields.last_page_url,
  });
  const tail = JSON.stringify({
    next_page_url: fields.next_page_url,
    path: fields.path,
    per_page: fields.per_page,
    prev_page_url: fields.prev_page_url,
    to: fields.to,
    total: fields.total,
  });
  const opening = `${head.slice(0, -1)},"links":[${previous}`;
  const closing = `,${next}],${tail.slice(1)}`;
  const quotedPrefix = JSON.stringify(prefix).slice(0, -1);
  if (lastPage * (quotedPrefix.length + LINK_CHARACTERS_BESIDE_PREFIX) > MOST_LINK_CHARACTERS_IN_ONE_STRING) {
    return envelopeParts(opening, quotedPrefix, lastPage, page, closing);
  }

  const entries = pageEntries(prefix, lastPage);
  let pages = entries.json;
  if (page <= lastPage) {
    const at = entries.activeAt[page - 1];
    pages = `${pages.slice(0, at)}true${pages.slice(at + 5)}`;
  }
  return `${opening},${pages}${closing}`;
}

/** A long list's envelope, PAGES_PER_PART links at a time, each part made only when asked for. */
function* envelopeParts(opening: string, quotedPrefix: string, lastPage: number, page: number, closing: string): Generator<string> {
  yield opening;
  for (let from = 1; from <= lastPage; from += PAGES_PER_PART) yield pageLinks(quotedPrefix, from, Math.min(lastPage, from + PAGES_PER_PART - 1), page);
  yield closing;
}
