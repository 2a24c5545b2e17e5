import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startAgent, type RunningAgent } from '../../agent/agent';
import { RecordingNotifier } from '../helpers/recordingNotifier';
import { runCli, tempFolder } from '../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../helpers/fakeTime';
import { tempDir } from '../helpers/testAgent';

// A replayed spool, with real processes: an every-minute job pings with `cronbeat ping` while the
// agent is down (each ping's clock set by libfaketime), then the agent starts and the spool replays.
vi.setConfig({ testTimeout: 30_000 });

const at = (iso: string) => Date.parse(iso);
const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe.skipIf(!hasFakeTime)('a spool replayed after the agent was down', () => {
  it('delivers every pulse and raises no failed/recovered flapping', async () => {
    const dataDir = tempDir();
    let now = at('2026-11-21T10:00:20Z');
    const clock = () => now;
    const first: RunningAgent = await startAgent({ dataDir, port: 0, clock, log: () => {} });
    const token = first.store.apiTokens.create({ companyId: 1, name: 'test', now }).token;
    const created = await fetch(`${first.url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'every minute', timezone: 'UTC', schedule: '* * * * *', duration: 1 }),
    });
    const monitor = (await created.json()) as { id: number; token: string };
    const url = first.url;
    await first.close();

    const clientDir = tempFolder();
    for (const sentAt of ['2026-11-21T10:01:05Z', '2026-11-21T10:02:05Z', '2026-11-21T10:03:05Z']) {
      const ping = await runCli(['ping', monitor.token], { env: { CRONBEAT_URL: url, CRONBEAT_DATA_DIR: clientDir, ...fakeTimeEnv(sentAt) } });
      expect(ping.stderr).toMatch(/saved to the spool/);
    }

    // The agent comes back at 10:03:30, on the same port, and the next ping replays the spool.
    now = at('2026-11-21T10:03:30Z');
    const notifier = new RecordingNotifier();
    const port = Number(new URL(url).port);
    const agent = await startAgent({ dataDir, port, clock, notifier, log: () => {} });
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }), () => agent.close());
    expect(agent.store.monitors.find(1, monitor.id)).toMatchObject({ grace_from: now, due_at: at('2026-11-21T10:04:30Z') });

    // On the job machine's own clock, which went on from the pings (each pulse says its age on it).
    const flush = await runCli(['spool', 'flush'], { env: { CRONBEAT_URL: url, CRONBEAT_DATA_DIR: clientDir, ...fakeTimeEnv('2026-11-21T10:03:30Z') } });
    expect(flush.stdout).toBe('Delivered 3 pulses; 0 still waiting.\n');
    // Let the loop run after the last change (it would have failed the monitor between replays).
    now += 500;
    await new Promise((done) => setTimeout(done, 50));

    expect(agent.store.pulses.count(monitor.id)).toBe(3);
    expect(agent.store.notifications.page(1, 10, 0)).toEqual([]);
    expect(notifier.popups).toEqual([]);
    expect(agent.store.monitors.find(1, monitor.id)).toMatchObject({ is_alerted: 0, due_at: at('2026-11-21T10:05:00Z') });
  });
});
