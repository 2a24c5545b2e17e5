import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filterSql } from '../../agent/db/notifications';
import { REPORT_NOTIFICATION_TYPE } from '../../agent/domain/alerts/notificationKinds';
import { rollBackTo } from '../helpers/rollBack';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/*
 * GET /api/notifications/count: the list's total without a page. The dashboard's unread badge
 * asked the list for one notification a page to read its total, and the envelope names every
 * page: at a million unread, 124 MB built in two seconds of the agent's event loop, on every load
 * and after every new notification.
 */

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
});

const FILTERS = ['', '?unread=1', '?kinds=all', '?kinds=all&unread=1', '?kinds=spec&unread=0'];

async function json(path: string, token?: string) {
  const response = await agent!.api(path, { token });
  return { status: response.status, body: await response.json() };
}

/** Notifications of several kinds, some read, and a report (never listed, so never counted). */
async function plantNotifications(a: TestAgent) {
  const monitor = await (await a.api('/api/monitors', { method: 'POST', json: { name: 'nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
  for (let i = 0; i < 2; i++) {
    expect((await fetch(`${a.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
    expect((await fetch(`${a.url}/api/pulse/${monitor.token}`)).status).toBe(200);
  }
  a.store.db
    .prepare(
      `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, created_at, updated_at)
       VALUES ('00000000-0000-7000-8000-00000000000a', ?, 'App\\Models\\Company', 1, '{}', '{}', 1, 1)`,
    )
    .run(REPORT_NOTIFICATION_TYPE);
  const [first] = (await (await a.api('/api/notifications?kinds=all')).json()).data;
  expect((await a.api(`/api/notifications/${first.id}`, { method: 'PATCH', json: { read: true } })).status).toBe(200);
}

describe('GET /api/notifications/count', () => {
  it("answers each filter's list total, reports never counted", async () => {
    agent = await startTestAgent();
    await plantNotifications(agent);
    const totals: number[] = [];
    for (const filter of FILTERS) {
      const count = await json(`/api/notifications/count${filter}`);
      expect(count.status, filter).toBe(200);
      expect(Object.keys(count.body)).toEqual(['total']);
      expect(count.body.total, filter).toBe((await json(`/api/notifications${filter}`)).body.total);
      totals.push(count.body.total);
    }
    // 2 failures (the spec's kind), 2 recoveries (Cronbeat's own), the newest of the four read.
    expect(totals).toEqual([2, 2, 4, 3, 2]);
  });

  it('refuses a filter it does not know, naming it, and answers a read-only key', async () => {
    agent = await startTestAgent();
    expect((await json('/api/notifications/count?kinds=some')).body.errors).toHaveProperty('kinds');
    expect((await json('/api/notifications/count?unread=maybe')).status).toBe(422);
    const key = await (await agent.api('/api/keys', { method: 'POST', json: { name: 'wall', scope: 'read-only' } })).json();
    expect(await json('/api/notifications/count?kinds=all&unread=1', key.key)).toEqual({ status: 200, body: { total: 0 } });
  });
});

describe('the unread index (migration 31)', () => {
  it('is the one an unread count searches, of either kinds', async () => {
    agent = await startTestAgent();
    for (const kinds of ['all', 'spec'] as const) {
      const plan = agent.store.db
        .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM notifications WHERE notifiable_id = 1${filterSql({ kinds, unread: true })}`)
        .all() as Array<{ detail: string }>;
      // Its terms are the index's own, so SQLite reads no row of the table (about 50 ms at a million, against 600).
      expect(plan.map((step) => step.detail), kinds).toEqual(['SEARCH notifications USING INDEX notifications_unread (notifiable_id=?)']);
    }
  });

  it('is remade on upgrade without reports, and the counts stay the same', async () => {
    const dataDir = tempDir();
    const first = await startTestAgent({ dataDir });
    await plantNotifications(first);
    await first.close();
    rollBackTo(join(dataDir, 'cronbeat.db'), 30);
    agent = await startTestAgent({ dataDir });
    const index = agent.store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'notifications_unread'").pluck().get() as string;
    expect(index).toContain(`type != '${REPORT_NOTIFICATION_TYPE}'`);
    expect((await json('/api/notifications/count?kinds=all&unread=1')).body.total).toBe(3);
    expect((await agent.api('/api/notifications/read', { method: 'POST' })).status).toBe(200);
    expect((await json('/api/notifications/count?kinds=all&unread=1')).body.total).toBe(0);
  });
});
