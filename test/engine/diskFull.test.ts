import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isStorageFull } from '../../agent/db/storageErrors';
import { CANNOT_WRITE_NOTE } from '../../agent/domain/alerts/monitorPopups';
import { MAX_RETRY_MS, startMonitorLoop } from '../../agent/engine/loop';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';
import { tempDir } from '../helpers/testAgent';
import { at, engineFixture } from './engineFixture';

const smallDisk = mountSmallDisk(8);
afterAll(() => {
  if (!smallDisk) return;
  unmountSmallDisk(smallDisk);
});


let fixture: ReturnType<typeof engineFixture>;
let stop: (() => void) | undefined;
let logged: string[];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(at('2026-11-21T10:00:20.500Z'));
});
afterEach(() => {
  stop?.();
  stop = undefined;
  fixture?.close();
  vi.useRealTimers();
});

/**
 * Runs the whole story with writes broken by `breakWrites` (which returns how to mend them):
 * a monitor due at 10:02 while nothing can be written, then writes work again.
 */
function diskFullStory(dir: string, breakWrites: () => () => void) {
  fixture = engineFixture(Date.now(), dir);
  const monitor = fixture.monitor({ name: 'backup', schedule: '* * * * *', duration: 1 }); // due 10:02:00
  const later = fixture.monitor({ name: 'hourly', schedule: '30 * * * *', duration: 5 });
  logged = [];
  const mend = breakWrites();
  stop = startMonitorLoop({
    failer: fixture.failer,
    events: fixture.events,
    clock: () => Date.now(),
    log: (line) => logged.push(line),
  });

  // Ten minutes with the disk full: a spinning loop would run out the fake timers' limit here.
  vi.advanceTimersByTime(10 * 60_000);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatch(/^Monitor loop: cannot write: /);
  expect(fixture.notifier.popups).toEqual([
    {
      title: '✗ backup missed its run',
      body: `Missed: the run due Sat 21 Nov 10:01 UTC did not come (grace 1 min); no run has come yet.\n${CANNOT_WRITE_NOTE}`,
      route: `/monitors/${monitor.id}`,
    },
  ]);
  expect(fixture.reload(monitor.id).is_alerted).toBe(0); // not recorded: it could not be

  mend();
  vi.advanceTimersByTime(MAX_RETRY_MS);
  expect(logged).toEqual([logged[0], 'Monitor loop: writing again']);
  expect(fixture.reload(monitor.id).is_alerted).toBe(1);
  expect(fixture.alertReason(monitor.id)).toBe('Missed: the run due 2026-11-21 10:01 UTC did not come (grace 1 min); no run has come yet');
  expect(fixture.notifications()).toHaveLength(1);
  expect(fixture.notifier.popups).toHaveLength(1); // told once already: no second popup
  expect(fixture.store.popupOutbox.countPending()).toBe(0); // nor at the next start

  // And the loop works as before: the hourly monitor fails at its own deadline with its own popup.
  vi.advanceTimersByTime(40 * 60_000);
  expect(fixture.reload(later.id).is_alerted).toBe(1);
  expect(fixture.notifier.popups.map((p) => p.title)).toEqual(['✗ backup missed its run', '✗ hourly missed its run']);
  expect(logged).toHaveLength(2);
}

describe('the monitor loop while the database cannot be written', () => {
  it.skipIf(!smallDisk)('on a full disk (a real 8 MB tmpfs): backs off, tells the user, records the failure once later', () => {
    const dir = join(smallDisk!, 'data');
    mkdirSync(dir);
    diskFullStory(dir, () => {
      // An empty write-ahead log, so the next commit needs new space (a used one would be rewritten in place).
      fixture.store.db.pragma('wal_checkpoint(TRUNCATE)');
      const filler = fillDisk(dir);
      return () => rmSync(filler);
    });
  });

  it('on a database that refuses writes (SQLITE_READONLY): the same', () => {
    diskFullStory(tempDir('cronbeat-engine-'), () => {
      fixture.store.db.pragma('query_only = 1');
      return () => fixture.store.db.pragma('query_only = 0');
    });
  });
});

describe('isStorageFull', () => {
  it('is true for SQLite errors that say it cannot write, false for anything else', () => {
    const sqlite = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED']) {
      expect(isStorageFull(sqlite(code))).toBe(true);
    }
    for (const error of [sqlite('SQLITE_CONSTRAINT_UNIQUE'), sqlite('SQLITE_BUSY'), sqlite('SQLITE_IOERRX'), new Error('SQLITE_FULL'), 'SQLITE_FULL', null, undefined]) {
      expect(isStorageFull(error)).toBe(false);
    }
  });
});
