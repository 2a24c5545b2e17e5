import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../../helpers/fakeTime';
import { tempDir } from '../../helpers/testAgent';

// A real `cronbeat serve` stopped before a maintenance window and started again inside it, its
// clock moved and running 90 times faster (libfaketime): no alarm for the runs in the window,
// and the first run after it is still expected.
vi.setConfig({ testTimeout: 60_000 });
const SPEED = 90;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** One request on a connection of its own (the agent's fast clock closes idle pooled ones). */
function send(url: string, token: string, method = 'GET', body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    request(url, { method, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, text }));
    })
      .on('error', reject)
      .end(body === undefined ? undefined : JSON.stringify(body));
  });
}

let serve: ServeProcess | undefined;
const dataDir = tempDir();
afterAll(async () => {
  await serve?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!hasFakeTime)('a restart during a maintenance window', () => {
  it('raises nothing for the runs in the window, then fails the first run after it that never came', async () => {
    const token = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    serve = await startServe(['--data-dir', dataDir, '--no-popups'], fakeTimeEnv('2026-11-27T13:55:00Z', SPEED));
    let api = async (path: string, method?: string, body?: unknown) => JSON.parse((await send(serve!.url + path, token, method, body)).text);
    const monitor = await api('/api/monitors', 'POST', { name: 'etl', timezone: 'UTC', schedule: '*/10 * * * *', duration: 2 });
    await api('/api/maintenance-windows', 'POST', { starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T14:30:00Z', monitor_ids: [monitor.id] });
    await serve.stop();

    // Back at 14:15, inside the window: the 14:00 and 14:10 runs were due in it.
    serve = await startServe(['--data-dir', dataDir, '--no-popups'], fakeTimeEnv('2026-11-27T14:15:00Z', SPEED));
    const startedAt = Date.now();
    api = async (path: string, method?: string, body?: unknown) => JSON.parse((await send(serve!.url + path, token, method, body)).text);
    const untilAgentTime = (iso: string) => sleep(Math.max(0, (Date.parse(iso) - Date.parse('2026-11-27T14:15:00Z')) / SPEED - (Date.now() - startedAt)));
    const failures = async () => (await api('/api/notifications?per_page=10')).data.filter((n: { data: { status: string } }) => n.data.status === 'failed');

    // Checked well inside the window and well after the deadline: starting the agent costs it some minutes of its fast clock.
    await untilAgentTime('2026-11-27T14:21:00Z');
    expect(await failures()).toEqual([]);
    const waiting = await api(`/api/monitors/${monitor.id}`);
    expect(waiting.next_due_at).toBe('2026-11-27T14:32:00.000000Z');
    const active = await api(`/api/maintenance-windows?monitor_id=${monitor.id}&active=true`);
    expect(active.data[0].active_until).toBe('2026-11-27T14:30:00.000000Z');

    await untilAgentTime('2026-11-27T14:39:00Z');
    const failed = await failures();
    expect(failed).toHaveLength(1);
    expect(failed[0].data.description).toContain('14:30');
  });
});
