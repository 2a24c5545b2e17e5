import type { ShownMonitorText } from '../../db/shownMonitors';

/** What a monitor's answer was made from, and its JSON in UTF-8 once the same row was listed twice. */
export interface KeptMonitor {
  text: ShownMonitorText;
  origin: string;
  channelIds: string;
  /** Set by the listing that meets the row unchanged a second time. */
  json: Buffer | null;
}

/** What one listing asks of the memo: each listed monitor once, then `done` once every row was asked. */
export interface MemoListing {
  /**
   * The monitor `id` whose row reads `text`, as kept from an earlier listing when nothing its
   * answer is made from changed since (its `json` may still be null: the caller serialises and
   * sets it), or null when the row is new or changed (kept for next time; the caller serialises
   * its answer with the others).
   */
  unchanged(id: number, text: ShownMonitorText, origin: string, channelIds: readonly number[] | null): KeptMonitor | null;
  done(): void;
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
 * About 1 KB per monitor (its text and its JSON), per company. A listing of every live monitor
 * keeps only the rows it met, so deleted monitors are forgotten at the next full list.
 */
export function monitorJsonMemo() {
  const companies = new Map<number, Map<number, KeptMonitor>>();
  return {
    /** A listing of the company's monitors; `everyRow`: every live monitor will be asked (no filter), so the others can go. */
    listing(companyId: number, everyRow: boolean): MemoListing {
      const before = companies.get(companyId) ?? new Map<number, KeptMonitor>();
      const after = everyRow ? new Map<number, KeptMonitor>() : before;
      return {
        unchanged(id, text, origin, channelIds) {
          const channels = channelIds === null ? 'all' : channelIds.join(',');
          const kept = before.get(id);
          if (kept === undefined || kept.text !== text || kept.origin !== origin || kept.channelIds !== channels) {
            after.set(id, { text, origin, channelIds: channels, json: null });
            return null;
          }
          if (after !== before) after.set(id, kept);
          return kept;
        },
        done() {
          companies.set(companyId, after);
        },
      };
    },
  };
}
