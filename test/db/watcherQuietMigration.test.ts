import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { quietAfter } from '../../agent/domain/servers/quietAfter';
import { stepAt } from '../helpers/loopStep';
import { rollBackTo } from '../helpers/rollBack';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/*
 * Reports kept by a release whose server was quiet by whichever watcher reported last (migration
 * 40): that watcher keeps the server's state as it was (a maintenance hold, a quiet already told);
 * another watcher gets its own quiet moment, and one that stopped while the other reported is told.
 */

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
});

describe("migrating a server's quiet state to its watchers", () => {
  it('keeps the last reporter\'s state, and tells a watcher the last report hid', async () => {
    const dataDir = tempDir();
    const first = await startTestAgent({ dataDir });
    for (const identifier of ['two', 'told']) {
      expect((await first.api('/api/servers', { method: 'POST', json: { name: identifier, ip_address: '10.0.0.7', identifier } })).status).toBe(201);
    }
    await first.close();
    const at = Date.parse('2026-11-23T10:00:00Z');
    const held = at + 5 * 3_600_000;
    rollBackTo(
      join(dataDir, 'cronbeat.db'),
      39,
      // "two": an hourly timers watcher reported last (held by a maintenance window), its crontab watcher stopped 10 min before.
      // "told": one watcher from before watchers named themselves, already told quiet.
      `INSERT INTO server_reports (server_id, last_report_at, interval_seconds, jobs, quiet_alert_at, quiet_since)
         SELECT id, ${at}, 3600, 2, ${held}, NULL FROM servers WHERE identifier = 'two';
       INSERT INTO server_watchers (server_id, watcher, jobs, last_report_at, interval_seconds)
         SELECT id, 'timers-watch-system', 1, ${at}, 3600 FROM servers WHERE identifier = 'two'
         UNION ALL SELECT id, 'crontab-watch', 1, ${at - 600_000}, 60 FROM servers WHERE identifier = 'two';
       INSERT INTO server_reports (server_id, last_report_at, interval_seconds, jobs, quiet_alert_at, quiet_since)
         SELECT id, ${at - 7_200_000}, 60, 2, ${quietAfter(at - 7_200_000, 60)}, ${quietAfter(at - 7_200_000, 60) + 1} FROM servers WHERE identifier = 'told';`,
    );

    // Started at the reports' time: a start later would count their silence from then (quietAfterOutage).
    let now = at;
    agent = await startTestAgent({ dataDir, clock: () => now });
    const watchers = agent.store.db
      .prepare('SELECT s.identifier, w.watcher, w.quiet_alert_at, w.quiet_since FROM server_watchers w JOIN servers s ON s.id = w.server_id ORDER BY s.identifier, w.watcher')
      .all();
    expect(watchers).toEqual([
      { identifier: 'told', watcher: '', quiet_alert_at: quietAfter(at - 7_200_000, 60), quiet_since: quietAfter(at - 7_200_000, 60) + 1 },
      // Its quiet moment passed while Cronbeat was not running: it counts from the start, as any watcher's would.
      { identifier: 'two', watcher: 'crontab-watch', quiet_alert_at: quietAfter(at, 60), quiet_since: null },
      { identifier: 'two', watcher: 'timers-watch-system', quiet_alert_at: held, quiet_since: null },
    ]);
    now = quietAfter(at, 60) + 1;
    await stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
    const notes = ((await (await agent.api('/api/notifications?kinds=all')).json()).data as Array<{ data: { server_identifier?: string; status: string; description: string } }>)
      .filter((n) => n.data.server_identifier !== undefined)
      .map((n) => [n.data.server_identifier, n.data.status, n.data.description.slice(0, 50)]);
    expect(notes).toEqual([['two', 'quiet', 'The crontab watcher "crontab-watch" of two (two) h']]);
    const servers = (await (await agent.api('/api/servers')).json()) as Array<{ identifier: string; quiet: boolean }>;
    expect(servers.map((s) => [s.identifier, s.quiet])).toEqual([
      ['two', true],
      ['told', true],
    ]);
  });
});
