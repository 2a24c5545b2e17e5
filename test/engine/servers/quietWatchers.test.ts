import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../../agent/engine/failOverdue';
import { stepAt } from '../../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';

/*
 * One server, several watchers (a crontab watcher and a timers watcher, one of /etc/crontab and one
 * of a user's files): the server's quiet flag and its quiet and "reports again" notifications
 * followed whichever watcher reported last, so a watcher that kept reporting hid one that died
 * (never told), and its report told a dead one back. Each watcher is quiet on its own now, and the
 * server is quiet while any of its watchers is, whatever order they report in.
 */

let agent: TestAgent;
let now = Date.parse('2026-11-23T10:00:00Z');
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now, channels: { adminZone: 'UTC' } });
});
afterAll(() => agent.stop());

const at = (time: string) => Date.parse(`2026-11-23T${time}Z`);
const report = async (identifier: string, watcher: string | undefined, interval: number, time: string) => {
  now = at(time);
  const response = await agent.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: identifier, interval_seconds: interval, jobs: 3, watcher } });
  expect(response.status).toBe(200);
  return (await response.json()).watched_jobs as number;
};
const step = (time: string) => {
  now = at(time);
  return stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), now);
};
const addServer = async (identifier: string) =>
  (await (await agent.api('/api/servers', { method: 'POST', json: { name: identifier, ip_address: '10.0.0.7', identifier } })).json()).id as number;
const quietFlag = async (id: number) => (await (await agent.api(`/api/servers/${id}`)).json()).quiet as boolean;
const notes = async (identifier: string) =>
  ((await (await agent.api('/api/notifications?per_page=100&kinds=all')).json()).data as Array<{ data: Record<string, unknown> }>)
    .filter((n) => n.data.type === 'server' && n.data.server_identifier === identifier && n.data.status !== undefined)
    .reverse()
    .map((n) => `${n.data.status}: ${n.data.description}`);

describe('a server with several watchers', () => {
  it("tells one watcher's death though another keeps reporting, and shows the server quiet meanwhile", async () => {
    const id = await addServer('web-1');
    await report('web-1', 'crontab-watch', 60, '10:00:00');
    await report('web-1', 'timers-watch-system', 60, '10:00:00');
    // crontab-watch dies; timers-watch-system reports every minute.
    for (const minute of ['01', '02', '03', '04', '05']) {
      await report('web-1', 'timers-watch-system', 60, `10:${minute}:00`);
      await step(`10:${minute}:00.001`);
      expect(await quietFlag(id), `10:${minute}`).toBe(minute >= '03');
    }
    expect(await notes('web-1')).toEqual([
      'quiet: The crontab watcher "crontab-watch" of web-1 (web-1) has not reported since 2026-11-23 10:00 UTC; it reports every minute. Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?',
    ]);
  });

  // The hourly timers watcher reports last (its report hid the dead one), or first (its next report told the dead one back).
  for (const [identifier, slowFirst] of [['web-2', false], ['web-3', true]] as const) {
    it(`tells a dead watcher once and back only by its own report, the slower watcher reporting ${slowFirst ? 'first' : 'last'}`, async () => {
      const id = await addServer(identifier);
      if (slowFirst) await report(identifier, 'timers-watch-system', 3600, '09:59:50');
      await report(identifier, 'crontab-watch', 60, '10:00:00');
      if (!slowFirst) await report(identifier, 'timers-watch-system', 3600, '10:00:10');
      // crontab-watch dies at 10:00; the timers watcher reports hourly.
      await step('10:03:00.001');
      expect(await quietFlag(id)).toBe(true);
      await report(identifier, 'timers-watch-system', 3600, '11:00:10');
      expect(await quietFlag(id)).toBe(true);
      await step('11:00:11');
      await report(identifier, 'crontab-watch', 60, '11:30:00');
      expect(await quietFlag(id)).toBe(false);
      expect(await notes(identifier)).toEqual([
        `quiet: The crontab watcher "crontab-watch" of ${identifier} (${identifier}) has not reported since 2026-11-23 10:00 UTC; it reports every minute. Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?`,
        `reporting: The crontab watcher "crontab-watch" of ${identifier} (${identifier}) reported again at 2026-11-23 11:30 UTC, after 1 h 30 min without a report.`,
      ]);
    });
  }

  it('takes the first named watcher for the unnamed one of an older cronbeat, upgraded: not a watcher that stopped', async () => {
    const id = await addServer('web-4');
    await report('web-4', undefined, 60, '10:00:00');
    await step('10:03:00.001');
    expect(await quietFlag(id)).toBe(true);
    // The same watcher, upgraded, names itself: its silence ends, and it is counted once.
    expect(await report('web-4', 'crontab-watch', 60, '10:10:00')).toBe(3);
    expect(await quietFlag(id)).toBe(false);
    expect(await report('web-4', 'crontab-watch', 60, '10:12:00')).toBe(3);
    await step('10:14:00');
    expect(await quietFlag(id)).toBe(false);
    expect(await notes('web-4')).toEqual([
      'quiet: The crontab watcher of web-4 (web-4) has not reported since 2026-11-23 10:00 UTC; it reports every minute. Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?',
      'reporting: The crontab watcher of web-4 (web-4) reported again at 2026-11-23 10:10 UTC, after 10 min without a report.',
    ]);
  });

  it('keeps the server quiet for a watcher replaced by one of other files, until it is forgotten', async () => {
    const id = await addServer('web-5');
    await report('web-5', 'crontab-watch-files-aaaaaaaaaaaa', 60, '10:00:00');
    // Its files changed: it reports under another name from now on.
    await report('web-5', 'crontab-watch-files-bbbbbbbbbbbb', 60, '10:01:00');
    await report('web-5', 'crontab-watch-files-bbbbbbbbbbbb', 60, '10:03:00');
    await step('10:03:00.001');
    expect(await quietFlag(id)).toBe(true);
    const watchers = await (await agent.api(`/api/servers/${id}/watchers`)).json();
    expect(watchers).toEqual([
      { watcher: 'crontab-watch-files-aaaaaaaaaaaa', last_report_at: '2026-11-23T10:00:00.000000Z', report_interval_seconds: 60, jobs: 3, quiet: true },
      { watcher: 'crontab-watch-files-bbbbbbbbbbbb', last_report_at: '2026-11-23T10:03:00.000000Z', report_interval_seconds: 60, jobs: 3, quiet: false },
    ]);
    const forget = (query: string, token?: string) => agent.api(`/api/servers/${id}/watchers${query}`, { method: 'DELETE', token });
    const readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now }).token;
    expect((await forget('?watcher=crontab-watch-files-aaaaaaaaaaaa', readOnly)).status).toBe(403);
    expect(Object.keys((await (await forget('')).json()).errors)).toEqual(['watcher']);
    expect((await forget('?watcher=crontab-watch-files-aaaaaaaaaaaa')).status).toBe(204);
    expect(await quietFlag(id)).toBe(false);
    expect((await forget('?watcher=crontab-watch-files-aaaaaaaaaaaa')).status).toBe(404);
    expect((await agent.api(`/api/servers/999999/watchers?watcher=x`, { method: 'DELETE' })).status).toBe(404);
    await step('10:04:00');
    expect(await notes('web-5')).toEqual([
      'quiet: The crontab watcher "crontab-watch-files-aaaaaaaaaaaa" of web-5 (web-5) has not reported since 2026-11-23 10:00 UTC; it reports every minute. Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?',
    ]);
  });
});
