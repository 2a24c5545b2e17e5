import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../../helpers/fakeTime';
import { tempDir } from '../../helpers/testAgent';
import { apiRequest } from '../../hardening/rawRequest';

// A real `cronbeat serve` stopped before a maintenance window, started again inside it, and
// again after it, each time with its clock moved there (libfaketime): no alarm for the runs in the
// window, and the first run after it is still expected. Each moment checked "before" something
// is one the agent's clock starts at, so a busy machine cannot carry the agent past it first.
vi.setConfig({ testTimeout: 60_000 });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));


let serve: ServeProcess | undefined;
const dataDir = tempDir();
afterAll(async () => {
  await serve?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!hasFakeTime)('a restart during a maintenance window', () => {
  it('raises nothing for the runs in the window, then fails the first run after it that never came', async () => {
    const token = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    const startAt = async (iso: string, speed = 1) => {
      await serve?.stop();
      serve = await startServe(['--data-dir', dataDir, '--no-popups'], fakeTimeEnv(iso, speed));
    };
    const api = async (path: string, method?: string, body?: unknown) => JSON.parse((await apiRequest(serve!.url + path, token, method, body)).text);
    const failures = async () => (await api('/api/notifications?per_page=10')).data.filter((n: { data: { status: string } }) => n.data.status === 'failed');

    await startAt('2026-11-27T13:55:00Z');
    const monitor = await api('/api/monitors', 'POST', { name: 'etl', timezone: 'UTC', schedule: '*/10 * * * *', duration: 2 });
    await api('/api/maintenance-windows', 'POST', { starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T14:30:00Z', monitor_ids: [monitor.id] });

    // Back at 14:21, inside the window: the 14:00, 14:10 and 14:20 runs were due in it and never came.
    await startAt('2026-11-27T14:21:00Z');
    await api('/api/health');
    expect(await failures()).toEqual([]);
    const active = await api(`/api/maintenance-windows?monitor_id=${monitor.id}&active=true`);
    expect(active.data[0].active_until).toBe('2026-11-27T14:30:00.000000Z');

    // Back at 14:39: the 14:30 run, the first after the window, never came. As after any time
    // the agent was away, the miss gets a fresh grace (2 min) from the start before it fails;
    // the clock runs 20 times faster so that takes seconds.
    await startAt('2026-11-27T14:39:00Z', 20);
    let failed = await failures();
    for (let tries = 0; failed.length === 0 && tries < 300; tries++) {
      await sleep(100);
      failed = await failures();
    }
    expect(failed).toHaveLength(1);
    expect(failed[0].data.description).toContain('14:30');
  });
});
