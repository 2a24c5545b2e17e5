import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * One server, several watchers on it (a crontab watcher of /etc/crontab, one of a user's crontab
 * or of run-parts' folders, a timers watcher): each names itself in its reports, and the server's
 * watched_jobs is the sum of each one's last count, a count replaced only by its own watcher.
 */

let now = Date.UTC(2026, 10, 23, 12, 0, 0);
let agent: TestAgent;
let serverId: number;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
  serverId = (await (await agent.api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.7', identifier: 'web-1' } })).json()).id;
});
afterAll(() => agent.stop());

const report = async (watcher: string | undefined, jobs: number | null, interval = 60) =>
  (await (await agent.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: 'web-1', interval_seconds: interval, jobs, ...(watcher === undefined ? {} : { watcher }) } })).json())
    .watched_jobs as number | null;
const shown = async () => (await (await agent.api(`/api/servers/${serverId}`)).json()).watched_jobs as number | null;

describe("a server's watched jobs, with several watchers", () => {
  it("is the sum of each watcher's last count, each replaced only by its own watcher's next report", async () => {
    expect(await report('crontab-watch', 5)).toBe(5);
    expect(await report('crontab-watch-files-0123456789ab', 2)).toBe(7);
    now += 30_000;
    expect(await report('crontab-watch', 6)).toBe(8);
    expect(await report('crontab-watch-files-0123456789ab', 2)).toBe(8);
    // A watcher's check at its start says no count: the part it had stays.
    expect(await report('crontab-watch', null)).toBe(8);
    expect(await shown()).toBe(8);
  });

  it('no longer counts a watcher gone quiet (stopped, or watching other files under another name)', async () => {
    now += 60_000;
    await report('crontab-watch', 6);
    now += 181_000;
    expect(await report('crontab-watch', 6)).toBe(6);
    expect(await report('crontab-watch-files-0123456789ab', 3)).toBe(9);
  });

  it("counts a watcher that names none (an older cronbeat) as one more watcher", async () => {
    expect(await report(undefined, 4)).toBe(13);
    expect(await report(undefined, 1)).toBe(10);
  });

  it('refuses a watcher name it could not show or store as written, naming the field, and changes nothing', async () => {
    for (const watcher of ['a b', 'x'.repeat(65), 12, 'crontab\u001b[31m']) {
      const response = await agent.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: 'web-1', jobs: 50, watcher } });
      expect(response.status, String(watcher)).toBe(422);
      expect(Object.keys((await response.json()).errors)).toEqual(['watcher']);
    }
    expect(await shown()).toBe(10);
  });
});
