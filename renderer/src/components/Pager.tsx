import type { Page } from '../api/types';

/** The page number a link of the pagination envelope points at, or null for a disabled entry. */
export function pageOf(url: string | null): number | null {
  if (!url) return null;
  try {
    const page = Number(new URL(url, 'http://x').searchParams.get('page'));
    return Number.isInteger(page) && page > 0 ? page : null;
  } catch {
    return null;
  }
}

/** Decodes the envelope's HTML-entity labels ("&laquo; Previous"). */
export function linkLabel(label: string): string {
  return label.replace(/&laquo;/g, '«').replace(/&raquo;/g, '»').replace(/&amp;/g, '&');
}

/**
 * Page controls built from the envelope's `links` (previous, each page, next). Long runs of
 * pages collapse around the current one so the bar fits at 800 px.
 */
export function Pager(props: { page: Page<unknown>; label: string; onPage: (page: number) => void }) {
  const { links, current_page: current, last_page: last } = props.page;
  if (last <= 1) return null;
  const keep = (n: number) => n === 1 || n === last || Math.abs(n - current) <= 2;
  const items: ({ kind: 'link'; link: (typeof links)[number]; page: number | null } | { kind: 'gap'; key: string })[] = [];
  links.forEach((link, index) => {
    const page = pageOf(link.url);
    const numeric = /^\d+$/.test(link.label);
    if (numeric && !keep(Number(link.label))) {
      const previous = items[items.length - 1];
      if (previous?.kind !== 'gap') items.push({ kind: 'gap', key: `gap-${index}` });
      return;
    }
    items.push({ kind: 'link', link, page });
  });
  return (
    <nav className="pager" aria-label={props.label}>
      {items.map((item, index) =>
        item.kind === 'gap' ? (
          <span key={item.key} className="pager-gap" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={`${item.link.label}-${index}`}
            type="button"
            className={`pager-item${item.link.active ? ' pager-active' : ''}`}
            disabled={item.page === null || item.link.active}
            aria-current={item.link.active ? 'page' : undefined}
            aria-label={/^\d+$/.test(item.link.label) ? `Page ${item.link.label}` : undefined}
            onClick={() => item.page !== null && props.onPage(item.page)}
          >
            {linkLabel(item.link.label)}
          </button>
        ),
      )}
    </nav>
  );
}
