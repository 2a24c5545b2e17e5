import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../helpers/fakeTime';
import { tempDir } from '../helpers/testAgent';
import { apiRequest } from '../hardening/rawRequest';

// A frozen agent, as it happens: a real `cronbeat serve` stopped with SIGSTOP for a minute or
// more across a deadline (what a laptop lid does) while a job's pulse waits in its socket queue.
// Its clock runs twenty times faster (libfaketime), so a minute's freeze takes 3 s.
vi.setConfig({ testTimeout: 60_000 });
const SPEED = 20;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));


let serve: ServeProcess | undefined;
const dataDir = tempDir();
afterAll(async () => {
  if (serve) {
    serve.child.kill('SIGCONT');
    await serve.stop();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!hasFakeTime)('a frozen agent (SIGSTOP across a deadline)', () => {
  it('gives a grace for the freeze and reads the queued pulse: no failed/recovered pair', async () => {
    const token = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    serve = await startServe(['--data-dir', dataDir, '--no-popups'], fakeTimeEnv('2026-11-21T10:00:45Z', SPEED));
    const api = async (path: string, method?: string, body?: unknown) => JSON.parse((await apiRequest(serve!.url + path, token, method, body)).text);

    const before = Date.now();
    const monitor = await api('/api/monitors', 'POST', { name: 'every minute', timezone: 'UTC', schedule: '* * * * *', duration: 1 });
    // Stopped at once: the deadline (the next minute's run plus its minute of grace) is a minute or
    // more of the agent's time away, so a busy machine's late timer or slow answer cannot let the
    // agent reach it running (stopping it 29 s of its time ahead, 1.5 s here, did).
    serve.child.kill('SIGSTOP');
    const requestMs = Date.now() - before;
    // The agent's clock, from the time it stamped on the monitor (within the request).
    const agentNow = () => Date.parse(monitor.created_at) + (Date.now() - before) * SPEED;
    const deadline = Date.parse(monitor.next_due_at);
    const pulse = apiRequest(monitor.pulse_url, token); // waits in the socket queue while the agent is stopped
    // Woken past the deadline even if the monitor was stamped at the very end of the request.
    await sleep(Math.max(0, (deadline + 1_000 - agentNow()) / SPEED + requestMs));
    serve.child.kill('SIGCONT');
    expect((await pulse).status).toBe(200);
    await sleep(300);

    expect(await api(`/api/monitors/${monitor.id}`)).toMatchObject({ is_alerted: 0, status: 'monitoring' });
    expect((await api('/api/notifications')).data).toEqual([]);
    expect((await api(`/api/monitors/${monitor.id}/pulses`)).data).toHaveLength(1);
  });
});
