import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';

vi.setConfig({ testTimeout: 30_000 });

/*
 * Two watchers of one server on one machine, over different files (the system crontab, and a
 * user's crontab with a run-parts folder), as real processes sharing a data folder: the server
 * shows the jobs of both, and a change in one watcher's files changes only its part.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
  await agent.api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.7', identifier: 'web-7' } });
});
afterAll(() => agent.stop());

const watchedJobs = async () => ((await (await agent.api('/api/servers')).json()) as Array<{ watched_jobs: number | null }>)[0]!.watched_jobs;

describe('two crontab watchers of one server', () => {
  it('show the sum of the jobs each one watches, each count replaced only by its own watcher', async () => {
    const folder = tempFolder();
    const system = join(folder, 'crontab');
    writeFileSync(system, '0 1 * * * root /a.sh\n0 2 * * * root /b.sh\n0 3 * * * root /c.sh\n');
    const user = join(folder, 'alice');
    writeFileSync(user, '*/5 * * * * /home/alice/sync.sh\n');
    const daily = join(folder, 'cron.daily');
    mkdirSync(daily);
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: join(folder, 'data') };
    const systemWatch = () => runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--system-file', system], { env });
    const userWatch = () => runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', user, '--run-parts', daily], { env });

    expect((await systemWatch()).status).toBe(0);
    expect(await watchedJobs()).toBe(3);
    expect((await userWatch()).status).toBe(0);
    expect(await watchedJobs()).toBe(4);
    expect((await systemWatch()).status).toBe(0);
    expect(await watchedJobs()).toBe(4);

    writeFileSync(user, '*/5 * * * * /home/alice/sync.sh\n0 4 * * * /home/alice/report.sh\n');
    expect((await userWatch()).status).toBe(0);
    expect(await watchedJobs()).toBe(5);
    expect((await systemWatch()).status).toBe(0);
    expect(await watchedJobs()).toBe(5);
  });
});
