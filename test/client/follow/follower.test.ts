import { describe, expect, it } from 'vitest';
import {
  agentName,
  CONNECTED,
  connectionLost,
  connectionRestored,
  connectionTick,
  noticeText,
  UNREACHABLE_AFTER_MS,
  type ConnectionState,
  type ConnectionStep,
} from '../../../agent/client/connection/connectionWatch';
import { advanceCursor, cursorAtAgentClock, EMPTY_CURSOR, freshOnPage, inOrderOfEvents, startCursor, type FollowedNotification } from '../../../agent/client/follow/notificationCursor';
import { followerPopups, notificationLine } from '../../../agent/client/follow/notificationPopups';
import { MAX_SEPARATE_POPUPS } from '../../../agent/domain/alerts/monitorPopups';

/* The follower's pure rules: what is new since the last notification seen, when to say "unreachable", how popups collapse. */

const at = (second: number) => `2026-11-25T14:02:${String(second).padStart(2, '0')}.000000Z`;
const note = (id: string, second: number, title = `job ${id} failed`): FollowedNotification => ({
  id,
  type: 'App\\Notifications\\MonitorFailedNotification',
  created_at: at(second),
  data: { type: 'monitor', type_id: Number(id.replace(/\D/g, '')) || 1, title, description: 'No pulse since 02:00' },
});

describe('notification cursor', () => {
  it('shows nothing on the first look, then what came after it', () => {
    expect(freshOnPage(EMPTY_CURSOR, [note('a', 1)])).toEqual({ fresh: [], reachedSeen: true });
    const cursor = startCursor([note('b', 2), note('a', 1)]);
    const page = [note('d', 4), note('c', 3), note('b', 2), note('a', 1)];
    expect(freshOnPage(cursor, page)).toEqual({ fresh: [note('d', 4), note('c', 3)], reachedSeen: true });
  });

  it('after a first look at an empty list, every later notification is new', () => {
    const cursor = startCursor([]);
    expect(freshOnPage(cursor, [note('a', 1)]).fresh).toEqual([note('a', 1)]);
  });

  it('tells apart notifications of the same instant by id, so none is missed or repeated', () => {
    let cursor = startCursor([note('a', 5)]);
    const page = [note('c', 5), note('a', 5), note('b', 5)]; // same time; the API orders them by id
    const { fresh } = freshOnPage(cursor, page);
    expect(fresh.map((n) => n.id)).toEqual(['c', 'b']);
    cursor = advanceCursor(cursor, fresh);
    expect(freshOnPage(cursor, page).fresh).toEqual([]);
  });

  it('asks for older pages until one reaches back to what was seen', () => {
    const cursor = startCursor([note('a', 1)]);
    expect(freshOnPage(cursor, [note('z', 9), note('y', 8)]).reachedSeen).toBe(false);
    expect(freshOnPage(cursor, [note('b', 2), note('x', 0)]).reachedSeen).toBe(true);
  });

  it("after the agent's clock was set back, what it makes since is new though stamped before what was seen", () => {
    // Seen: one stamped 14:02:50 by a clock that ran ahead; the agent's clock now reads 14:02:20.
    const cursor = cursorAtAgentClock(startCursor([note('a', 50)]), Date.parse(at(20)));
    expect(freshOnPage(cursor, [note('a', 50), note('b', 21)]).fresh.map((n) => n.id)).toEqual(['b']);
    // A clock that agrees (a second's difference: the Date header has no fraction), or none known: as it was.
    const seen = startCursor([note('a', 50)]);
    expect(cursorAtAgentClock(seen, Date.parse(at(49)))).toBe(seen);
    expect(cursorAtAgentClock(seen, null)).toBe(seen);
  });

  it('a notification the live stream announced is new though stamped before the newest seen (a clock set back)', () => {
    const cursor = startCursor([note('a', 50)]);
    expect(freshOnPage(cursor, [note('a', 50), note('b', 21), note('c', 10)], new Set(['b', 'a'])).fresh.map((n) => n.id)).toEqual(['b']);
  });

  it('hands notifications over oldest first', () => {
    expect(inOrderOfEvents([note('c', 3), note('a', 1), note('b', 2)]).map((n) => n.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('unreachable notice', () => {
  const start = Date.UTC(2026, 10, 25, 14, 2);
  const run = (steps: Array<(state: ConnectionState) => ConnectionStep>) => {
    let state = CONNECTED;
    const notices = [];
    for (const step of steps) {
      const next = step(state);
      state = next.state;
      if (next.notice) notices.push(next.notice);
    }
    return notices;
  };

  it('fires once after more than a minute down, and "back" once when reconnected', () => {
    const notices = run([
      (s) => connectionLost(s, start),
      (s) => connectionTick(s, start + UNREACHABLE_AFTER_MS), // exactly a minute: not yet
      (s) => connectionLost(s, start + 30_000), // further failed attempts keep the first time
      (s) => connectionTick(s, start + UNREACHABLE_AFTER_MS + 1),
      (s) => connectionTick(s, start + 5 * UNREACHABLE_AFTER_MS),
      (s) => connectionLost(s, start + 6 * UNREACHABLE_AFTER_MS),
      (s) => connectionRestored(s, start + 7 * UNREACHABLE_AFTER_MS),
      (s) => connectionTick(s, start + 8 * UNREACHABLE_AFTER_MS),
    ]);
    expect(notices).toEqual([
      { kind: 'unreachable', since: start },
      { kind: 'back', since: start },
    ]);
  });

  it('says nothing for a restart shorter than a minute', () => {
    expect(run([(s) => connectionLost(s, start), (s) => connectionTick(s, start + 20_000), (s) => connectionRestored(s, start + 40_000)])).toEqual([]);
  });

  it('reads "Cronbeat on backup-box unreachable since 14:02"', () => {
    const text = noticeText({ kind: 'unreachable', since: start }, agentName('https://backup-box:8787/'), () => '14:02');
    expect(text.title).toBe('Cronbeat on backup-box unreachable since 14:02');
    expect(noticeText({ kind: 'back', since: start }, 'backup-box', () => '14:02').title).toBe('Cronbeat on backup-box is back');
  });
});

describe('follower popups', () => {
  it('one popup each for a few, leading to what they are about', () => {
    const popups = followerPopups([note('m3', 1, 'backup failed')], { catchingUp: false });
    expect(popups).toEqual([{ title: 'backup failed', body: 'No pulse since 02:00', route: '/monitors/3' }]);
  });

  it(`collapses more than ${MAX_SEPARATE_POPUPS} into one that names the latest`, () => {
    const many = Array.from({ length: 8 }, (_, i) => note(`m${i + 1}`, i, `job ${i + 1} failed`));
    const popups = followerPopups(many, { catchingUp: true });
    expect(popups).toHaveLength(1);
    expect(popups[0].title).toBe('8 notifications while the connection was down');
    expect(popups[0].body.split('\n')).toEqual(['job 4 failed', 'job 5 failed', 'job 6 failed', 'job 7 failed', 'job 8 failed', 'and 3 earlier']);
  });

  it('says the many came while Cronbeat was closed when they did', () => {
    const many = Array.from({ length: 8 }, (_, i) => note(`m${i + 1}`, i, `job ${i + 1} failed`));
    expect(followerPopups(many, { catchingUp: true, sinceLastRun: true })[0].title).toBe('8 notifications while Cronbeat was closed');
  });

  it('prints one line a notification, its text on one line', () => {
    const line = notificationLine({ ...note('a', 7), data: { ...note('a', 7).data, description: 'Job said:\n  disk full' } });
    expect(line).toBe('2026-11-25 14:02:07 UTC  job a failed: Job said: disk full');
  });
});
