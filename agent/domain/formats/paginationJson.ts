import { envelopeFields, NEXT_LABEL, paginationEnvelope, pageUrlPrefix, PREVIOUS_LABEL, type EnvelopeInput } from './pagination';

/*
 * The pagination envelope as JSON text, exactly JSON.stringify(paginationEnvelope(input)), made
 * without building the links list as objects. The spec wants one link per page: a million rows
 * at 10 a page is 100,000 links and 10 MB, and making and serialising those objects on every
 * request cost far more than the query. The per-page entries are kept as one string per list
 * (URL prefix and page count) with the position of each entry's `active` flag, so a page costs
 * a slice and a concatenation.
 */

interface PageEntries {
  key: string;
  /** The entries of pages 1..lastPage, comma-separated, every `active` false. */
  json: string;
  /** Where page n's `false` starts, at index n - 1. */
  activeAt: Uint32Array;
}

/** The most recent list only: enough for paging through one list, and it bounds the memory held. */
let remembered: PageEntries | null = null;

function pageEntries(prefix: string, lastPage: number): PageEntries {
  const key = `${lastPage}\n${prefix}`;
  if (remembered?.key === key) return remembered;
  const quotedPrefix = JSON.stringify(prefix).slice(0, -1);
  const parts: string[] = new Array(lastPage);
  const activeAt = new Uint32Array(lastPage);
  let length = 0;
  for (let n = 1; n <= lastPage; n++) {
    const head = `${n > 1 ? ',' : ''}{"url":${quotedPrefix}${n}","label":"${n}","active":`;
    activeAt[n - 1] = length + head.length;
    parts[n - 1] = `${head}false}`;
    length += head.length + 6;
  }
  remembered = { key, json: parts.join(''), activeAt };
  return remembered;
}

/** JSON.stringify(paginationEnvelope(input)), fast for lists of many pages. */
export function paginationEnvelopeJson<T>(input: EnvelopeInput<T>): string {
  const prefix = pageUrlPrefix(input.path, input.keptQuery);
  if (prefix === null) return JSON.stringify(paginationEnvelope(input));
  const fields = envelopeFields(input);
  const { current_page: page, last_page: lastPage } = fields;

  const entries = pageEntries(prefix, lastPage);
  let pages = entries.json;
  if (page <= lastPage) {
    const at = entries.activeAt[page - 1];
    pages = `${pages.slice(0, at)}true${pages.slice(at + 5)}`;
  }
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
  return `${head.slice(0, -1)},"links":[${previous},${pages},${next}],${tail.slice(1)}`;
}
