import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../agent/db/open';
import { createStore, type Store } from '../../agent/db/store';
import { idOfShownMonitor, type ShownMonitorRow } from '../../agent/db/shownMonitors';
import { tempDir } from '../helpers/testAgent';
import { seedVariedMonitors as seed } from '../helpers/variedMonitors';

const now = Date.parse('2026-11-25T10:00:00Z');

/** eachPage's pages, each row made of its text; a row's id is the one its text starts with. */
function pagesOf(store: Store, companyId: number, pageSize: number): ShownMonitorRow[][] {
  const pages: ShownMonitorRow[][] = [];
  store.shownMonitors.eachPage(companyId, pageSize, (texts) =>
    pages.push(
      texts.map((text) => {
        const row = store.shownMonitors.rowOf(text);
        expect(idOfShownMonitor(text)).toBe(row.id);
        return row;
      }),
    ),
  );
  return pages;
}

describe('shownMonitors.eachPage', () => {
  it('gives each live monitor of the company once, in id order, with exactly the values and key order of a plain SELECT', () => {
    const store = createStore(openDatabase(join(tempDir(), 'shown.db')));
    seed(store, 40);
    seed(store, 5, 2);
    store.monitors.delete(1, 3, now);
    store.db.prepare('UPDATE monitors SET deleted_at = ? WHERE id = 5').run(now);
    const columns = Object.keys(pagesOf(store, 1, 100)[0]![0]!);
    const expected = store.db
      .prepare(`SELECT ${columns.join(', ')} FROM monitors WHERE company_id = 1 AND deleted_at IS NULL ORDER BY id`)
      .all() as ShownMonitorRow[];
    expect(expected.length).toBeGreaterThan(30);
    expect(expected.some((row) => row.last_pulse_at === now + 0.5)).toBe(true);
    for (const pageSize of [1, 3, 7, expected.length, 1000]) {
      const pages = pagesOf(store, 1, pageSize);
      expect(pages.length, `pages of ${pageSize}`).toBe(Math.ceil(expected.length / pageSize));
      expect(pages.every((page) => page.length > 0 && page.length <= pageSize)).toBe(true);
      const rows = pages.flat();
      expect(rows.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
      rows.forEach((row, i) => {
        for (const column of columns) {
          const [got, want] = [row[column as keyof ShownMonitorRow], expected[i]![column as keyof ShownMonitorRow]];
          expect(Object.is(got, want), `${column} of monitor ${row.id}: ${JSON.stringify(got)} against ${JSON.stringify(want)}`).toBe(true);
        }
      });
    }
    expect(pagesOf(store, 2, 2).flat().map((row) => row.company_id)).toEqual([2, 2, 2, 2, 2]);
    expect(pagesOf(store, 3, 10)).toEqual([]);
    store.close();
  });

  it('reads every page from one snapshot: a change another connection commits between pages is not seen', () => {
    const file = join(tempDir(), 'snapshot.db');
    const store = createStore(openDatabase(file));
    seed(store, 10);
    const other = new Database(file);
    other.pragma('busy_timeout = 5000');
    const names: string[] = [];
    store.shownMonitors.eachPage(1, 4, (texts) => {
      names.push(...texts.map((text) => store.shownMonitors.rowOf(text).name));
      if (names.length === 4) {
        other.prepare("UPDATE monitors SET name = 'renamed' WHERE id = 9").run();
        other.prepare('UPDATE monitors SET deleted_at = ? WHERE id = 10').run(now);
      }
    });
    expect(names).toHaveLength(10);
    expect(names).not.toContain('renamed');
    expect(pagesOf(store, 1, 4).flat().map((row) => row.name)).toContain('renamed');
    other.close();
    store.close();
  });
});
