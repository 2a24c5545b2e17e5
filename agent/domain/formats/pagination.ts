export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** The spec's pagination envelope, the shape Laravel's length-aware paginator gives. */
export interface PaginationEnvelope<T> {
  current_page: number;
  data: T[];
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: PageLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
}

export interface PageRequest {
  page: number;
  perPage: number;
}

/** The row offset where a page starts. */
export function pageOffset({ page, perPage }: PageRequest): number {
  return (page - 1) * perPage;
}

export interface EnvelopeInput<T> {
  data: T[];
  total: number;
  request: PageRequest;
  /** The absolute URL of the list without a query. */
  path: string;
  /** Query parameters every page URL carries besides `page` (such as per_page). */
  keptQuery?: Record<string, string>;
}

export const PREVIOUS_LABEL = '&laquo; Previous';
export const NEXT_LABEL = 'Next &raquo;';

/** Wraps one page of rows in the envelope. */
export function paginationEnvelope<T>(input: EnvelopeInput<T>): PaginationEnvelope<T> {
  const fields = envelopeFields(input);
  const { current_page: page, last_page: lastPage } = fields;
  const url = pageUrlMaker(input.path, input.keptQuery);
  const links: PageLink[] = [{ url: fields.prev_page_url, label: PREVIOUS_LABEL, active: false }];
  for (let n = 1; n <= lastPage; n++) links.push({ url: url(n), label: String(n), active: n === page });
  links.push({ url: fields.next_page_url, label: NEXT_LABEL, active: false });

  return {
    current_page: fields.current_page,
    data: fields.data,
    first_page_url: fields.first_page_url,
    from: fields.from,
    last_page: fields.last_page,
    last_page_url: fields.last_page_url,
    links,
    next_page_url: fields.next_page_url,
    path: fields.path,
    per_page: fields.per_page,
    prev_page_url: fields.prev_page_url,
    to: fields.to,
    total: fields.total,
  };
}

/** Every field of the envelope but `links`. */
export function envelopeFields<T>(input: EnvelopeInput<T>): Omit<PaginationEnvelope<T>, 'links'> {
  const { data, total, request, path } = input;
  const { page, perPage } = request;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const url = pageUrlMaker(path, input.keptQuery);
  const offset = pageOffset(request);
  return {
    current_page: page,
    data,
    first_page_url: url(1),
    from: data.length > 0 ? offset + 1 : null,
    last_page: lastPage,
    last_page_url: url(lastPage),
    next_page_url: page < lastPage ? url(page + 1) : null,
    path,
    per_page: perPage,
    prev_page_url: page > 1 ? url(page - 1) : null,
    to: data.length > 0 ? offset + data.length : null,
    total,
  };
}

/**
 * What every page URL starts with, so that page n's URL is this plus n: `path`, the kept
 * query, then `page=`. Null in the odd case where `page` would not come last.
 */
export function pageUrlPrefix(path: string, keptQuery: Record<string, string> = {}): string | null {
  const sample = `${path}?${new URLSearchParams({ ...keptQuery, page: '0' })}`;
  return sample.endsWith('page=0') ? sample.slice(0, -1) : null;
}

/**
 * The URL of page n. Built by appending the number to a prefix encoded once, because the links
 * list has an entry per page (100,000 entries for a million rows at 10 a page) and encoding
 * each URL from scratch dominated the response time.
 */
function pageUrlMaker(path: string, keptQuery: Record<string, string> = {}): (n: number) => string {
  const prefix = pageUrlPrefix(path, keptQuery);
  if (prefix === null) return (n) => `${path}?${new URLSearchParams({ ...keptQuery, page: String(n) })}`;
  return (n) => prefix + n;
}
