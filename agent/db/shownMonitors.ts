import type { Db } from './open';
import { rowTextsThroughJson } from './rows';
import type { MonitorRow } from './monitors';

/** The columns a monitor shows through the API (agent/api/present/present.ts): what the list reads. */
const SHOWN_COLUMNS = [
  'id', 'name', 'company_id', 'project_id', 'token', 'timezone', 'schedule', 'last_run_at', 'duration', 'is_alerted', 'alert_reason',
  'deleted_at', 'created_at', 'updated_at', 'paused_at', 'due_at', 'last_pulse_at', 'paused_until', 'running_since', 'resumed_at',
  'slug', 'tags', 'max_runtime', 'alert_reason_data', 'alert_after', 'failures', 'flapping',
] as const;
export type ShownMonitorRow = Pick<MonitorRow, (typeof SHOWN_COLUMNS)[number]>;

/**
 * A shown monitor as read: the JSON array SQLite wrote of its SHOWN_COLUMNS, `id` first. Equal
 * texts are equal rows (what the list made of one may be used again for the other).
 */
export type ShownMonitorText = string;

/** The id a row's text starts with: json_array writes an integer as its digits. */
export function idOfShownMonitor(text: ShownMonitorText): number {
  return Number(text.slice(1, text.indexOf(',')));
}

/** A company's live monitors as the list shows them (GET /api/monitors). */
export function shownMonitorRepository(db: Db) {
  // A fifth of the list's time went to reading columns it never shows (10,000 monitors: 158 against 122 ms in-process).
  const { texts, rowOf } = rowTextsThroughJson<ShownMonitorRow>(
    db,
    SHOWN_COLUMNS,
    'FROM monitors WHERE company_id = ? AND deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?',
  );
  return {
    /**
     * The company's live monitors, oldest first, handed to `each` a page at a time in one read
     * transaction (one snapshot, as a single SELECT would be), each as its text (rowOf makes the
     * row). What `each` makes of a page can be collected before the next is read: 10,000 rows and
     * their answers alive at once cost the garbage collector about a sixth of the list's time.
     */
    eachPage(companyId: number, pageSize: number, each: (texts: ShownMonitorText[]) => void): void {
      db.transaction(() => {
        for (let after = 0; ; ) {
          const page = texts(companyId, after, pageSize);
          if (page.length > 0) each(page);
          if (page.length < pageSize) return;
          after = idOfShownMonitor(page[page.length - 1]!);
        }
      })();
    },

    /** The row a text of eachPage's says. */
    rowOf,
  };
}
