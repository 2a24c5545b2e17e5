import type { ShownMonitorText } from '../../db/shownMonitors';

/**
 * The most the memo holds, over every company, counted as below (`rowCost`): about 1.2 KB a
 * monitor of the bench (its text at two bytes a character, its JSON's UTF-8, a generous guess at
 * the object and map entry around them), so 10,000 monitors take 12 MB and about 28,000 fit.
 * Past it the companies listed longest ago are forgotten first, then the listing's own later
 * rows are not kept (answered as if new, every time): a request can make the answer slower,
 * never the memo bigger. Rows grow with the origin (the Host, or X-Forwarded-Host under
 * --trust-proxy, in every pulse_url), which a client chooses: without a bound a 15 KB host kept
 * 15 KB a monitor.
 */
export const MONITOR_LIST_MEMO_BYTES = 32 * 1024 * 1024;

/** What keeping a row costs beside its strings and bytes: its object and its map entry, rounded up. */
const ROW_OVERHEAD_BYTES = 128;

/** What a monitor's answer was made from, and its JSON in UTF-8 once the same row was listed twice. */
interface KeptMonitor {
  text: ShownMonitorText;
  channelIds: string;
  /** Set by the listing that meets the row unchanged a second time. */
  json: Buffer | null;
  /** The last listing that met it: an unfiltered one forgets the rows it did not meet (deleted monitors). */
  listing: number;
}

/** A company's kept answers, all made for one origin (the last its full keys listed through). */
interface CompanyMemo {
  origin: string;
  rows: Map<number, KeptMonitor>;
  bytes: number;
}

/** What one listing asks of the memo: each listed monitor once, then `done` once every row was asked. */
export interface MemoListing {
  /**
   * The monitor's answer as kept (its JSON in UTF-8) when nothing it is made from changed since
   * the last listing: `serialise` makes it the second time the row is met so. Null when the row
   * is new or changed (kept for next time, room allowing): the caller serialises its answer with
   * the others.
   */
  answer(id: number, text: ShownMonitorText, channelIds: readonly number[] | null, serialise: () => Buffer): Buffer | null;
  done(): void;
}

/** Strings counted at two bytes a character: V8 keeps a text with any character past Latin-1 so. */
function rowCost(row: KeptMonitor): number {
  return ROW_OVERHEAD_BYTES + 2 * (row.text.length + row.channelIds.length) + (row.json?.length ?? 0);
}

/**
 * GET /api/monitors' answers for a full key, kept from one listing to the next, each with what it
 * was made from: the monitor's row as read (the whole JSON text SQLite wrote of its shown
 * columns, agent/db/shownMonitors.ts), the origin of its pulse_url and its channel ids. The
 * answer is a function of these alone (presentMonitor reads no clock and nothing else; a
 * read-only key's answers also hide tokens found in the store, so they are never kept here), so
 * a row whose text, origin and channels are what they were answers the same bytes, without being
 * parsed, presented, serialised or encoded again: two thirds of a 10,000-row list's work
 * (docs/performance.md, round 4's eleventh pass).
 *
 * A row is serialised on its own (to be kept) only the second time it is listed unchanged: one
 * JSON.stringify per object costs twice what its share of one over many does, so a row that
 * changes between every two listings (a monitor pulsing more often than the list is asked) is
 * serialised with the others as before and costs only its text's comparison and keeping.
 *
 * A company keeps one origin's answers, the last it listed through: a listing through another
 * starts afresh. A listing of every live monitor forgets the rows it did not meet (deleted
 * monitors); the whole memo holds at most MONITOR_LIST_MEMO_BYTES, so a company no longer listed
 * (its keys revoked, or a client's passing host) goes as others need the room.
 */
export function monitorJsonMemo() {
  // In the order they were last listed, longest ago first.
  const companies = new Map<number, CompanyMemo>();
  let heldBytes = 0;
  let listings = 0;

  const forget = (companyId: number) => {
    heldBytes -= companies.get(companyId)?.bytes ?? 0;
    companies.delete(companyId);
  };
  const grow = (memo: CompanyMemo, bytes: number) => {
    memo.bytes += bytes;
    heldBytes += bytes;
  };
  /** Whether `bytes` more fit, after forgetting the companies listed longest ago (never `keeping`) as needed. */
  const roomFor = (bytes: number, keeping: CompanyMemo): boolean => {
    if (heldBytes + bytes <= MONITOR_LIST_MEMO_BYTES) return true; // the usual case, without an iterator a row
    for (const [companyId, memo] of companies) {
      if (heldBytes + bytes <= MONITOR_LIST_MEMO_BYTES) return true;
      if (memo !== keeping) forget(companyId);
    }
    return heldBytes + bytes <= MONITOR_LIST_MEMO_BYTES;
  };
  const keep = (memo: CompanyMemo, id: number, row: KeptMonitor) => {
    const cost = rowCost(row);
    if (!roomFor(cost, memo)) return;
    memo.rows.set(id, row);
    grow(memo, cost);
  };
  const drop = (memo: CompanyMemo, id: number, row: KeptMonitor) => {
    memo.rows.delete(id);
    grow(memo, -rowCost(row));
  };

  /** The company's memo, last in the order (listed now), emptied when its answers were made for another origin. */
  const memoOf = (companyId: number, origin: string): CompanyMemo => {
    const kept = companies.get(companyId);
    if (kept?.origin === origin) {
      companies.delete(companyId);
      companies.set(companyId, kept);
      return kept;
    }
    forget(companyId);
    const memo: CompanyMemo = { origin, rows: new Map(), bytes: 0 };
    companies.set(companyId, memo);
    if (roomFor(2 * origin.length, memo)) grow(memo, 2 * origin.length);
    return memo;
  };

  return {
    /** A listing of the company's monitors through `origin`; `everyRow`: every live monitor will be asked (no filter), so the others can go. */
    listing(companyId: number, origin: string, everyRow: boolean): MemoListing {
      const memo = memoOf(companyId, origin);
      const listing = ++listings;
      return {
        answer(id, text, channelIds, serialise) {
          const channels = channelIds === null ? 'all' : channelIds.join(',');
          const kept = memo.rows.get(id);
          if (kept !== undefined && kept.text === text && kept.channelIds === channels) {
            kept.listing = listing;
            if (kept.json !== null) return kept.json;
            const json = serialise();
            // Kept with its bytes when they fit; else forgotten, to be kept again as new.
            drop(memo, id, kept);
            keep(memo, id, { ...kept, json });
            return json;
          }
          if (kept !== undefined) drop(memo, id, kept);
          keep(memo, id, { text, channelIds: channels, json: null, listing });
          return null;
        },
        done() {
          if (!everyRow) return;
          for (const [id, row] of memo.rows) if (row.listing !== listing) drop(memo, id, row);
        },
      };
    },
  };
}
