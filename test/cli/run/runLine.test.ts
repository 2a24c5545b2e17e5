import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';
import { closedPort, runCli, spawnCli, finished, tempFolder } from '../../helpers/cli';

// Real node processes, several seconds' worth on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

let agent: TestAgent;
let pingKey: string;

beforeAll(async () => {
  agent = await startTestAgent();
  pingKey = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
});
afterAll(() => agent.stop());

const envFor = (dataDir = tempFolder(), extra: Record<string, string> = {}) => ({
  CRONBEAT_URL: agent.url,
  CRONBEAT_DATA_DIR: dataDir,
  CRONBEAT_API_TOKEN: pingKey,
  ...extra,
});
const bySlug = (slug: string) => agent.store.monitors.list(1).filter((m) => m.slug === slug);
const kindsOf = (id: number) => agent.store.pulses.page(id, 100, 0).map((p) => p.kind).reverse();

describe('cronbeat run --name (a job line that makes its own monitor)', () => {
  it('creates the monitor on the first run, passes output and exit status through, and reuses it after', async () => {
    const dataDir = tempFolder();
    const env = envFor(dataDir);
    const first = await runCli(['run', '--name', 'Nightly Backup', '--schedule', '0 3 * * *', '--timezone', 'Europe/Paris', '--grace', '30', '--', 'sh', '-c', 'echo saved'], { env });
    expect(first).toMatchObject({ status: 0, stdout: 'saved\n', stderr: '' });
    const [monitor] = bySlug('nightly-backup');
    expect(monitor).toMatchObject({ name: 'Nightly Backup', schedule: '0 3 * * *', timezone: 'Europe/Paris', duration: 30 });
    expect(kindsOf(monitor.id)).toEqual(['start', 'success']);
    // The monitor's token is remembered beside the spool; the key is not written there.
    const memory = readFileSync(join(dataDir, 'lines.json'), 'utf8');
    expect(memory).toContain(monitor.token);
    expect(memory).not.toContain(pingKey);

    const second = await runCli(['run', '--name', 'nightly-backup', '--schedule', '0 3 * * *', '--timezone', 'Europe/Paris', '--grace', '30', '--', 'sh', '-c', 'exit 4'], { env });
    expect(second.status).toBe(4);
    expect(bySlug('nightly-backup')).toHaveLength(1);
    expect(kindsOf(monitor.id)).toEqual(['start', 'success', 'start', 'fail']);
  });

  it('a second run pulses its start by the remembered token: no question to the agent before the job starts', async () => {
    const dataDir = tempFolder();
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'short-lived', scope: 'ping', now: Date.now() });
    const env = envFor(dataDir, { CRONBEAT_API_TOKEN: key.token });
    const args = ['run', '--name', 'remembered', '--schedule', '*/5 * * * *', '--', 'true'];
    expect((await runCli(args, { env })).status).toBe(0);
    const [monitor] = bySlug('remembered');
    // With the key revoked, only a pulse by the monitor's own token can still land.
    agent.store.apiTokens.revoke(key.id, Date.now());
    const second = await runCli(args, { env });
    expect(second.status).toBe(0);
    expect(kindsOf(monitor.id)).toEqual(['start', 'success', 'start']);
    expect(second.stderr).toMatch(/end pulse refused by the agent: 401/);
  });

  it('two runs of the same line starting at the same instant make exactly one monitor', async () => {
    const args = ['run', '--name', 'twin-start', '--schedule', '* * * * *', '--', 'sh', '-c', 'echo ran'];
    const runs = await Promise.all(Array.from({ length: 4 }, () => finished(spawnCli(args, { env: envFor() }))));
    for (const run of runs) expect(run).toMatchObject({ status: 0, stdout: 'ran\n', stderr: '' });
    const monitors = bySlug('twin-start');
    expect(monitors).toHaveLength(1);
    expect(kindsOf(monitors[0].id).filter((k) => k === 'start')).toHaveLength(4);
  });

  it('when the line\'s schedule changes, the monitor follows at the next run and its history says so', async () => {
    const env = envFor();
    await runCli(['run', '--name', 'weekly-report', '--schedule', '0 8 * * 1', '--', 'true'], { env });
    await runCli(['run', '--name', 'weekly-report', '--schedule', '0 9 * * 1-5', '--grace', '15', '--', 'true'], { env });
    const [monitor] = bySlug('weekly-report');
    expect(monitor).toMatchObject({ schedule: '0 9 * * 1-5', duration: 15 });
    const changes = agent.store.monitorLines.changes(monitor.id);
    expect(JSON.parse(changes[0].changes)).toMatchObject({ schedule: { from: '0 8 * * 1', to: '0 9 * * 1-5' }, duration: { from: 60, to: 15 } });
    expect(changes[0].source).toBe('line');
  });

  it('--max-runtime sets the monitor\'s max run time; a bad one is one line on stderr and the job still runs', async () => {
    const env = envFor();
    const ran = await runCli(['run', '--name', 'long-export', '--schedule', '*/10 * * * *', '--max-runtime', '25', '--', 'true'], { env });
    expect(ran.status).toBe(0);
    expect(bySlug('long-export')[0].max_runtime).toBe(25);
    const bad = await runCli(['run', '--name', 'long-export', '--schedule', '*/10 * * * *', '--max-runtime', '0', '--', 'sh', '-c', 'exit 3'], { env });
    expect(bad.status).toBe(3);
    expect(bad.stderr.trim()).toBe('cronbeat: not monitoring this run: --max-runtime must be a whole number of minutes from 1 to 525600, not "0"');
    expect(bySlug('long-export')[0].max_runtime).toBe(25);
  });

  it('an invalid --schedule: the job still runs, one line on stderr says why, the exit status is the job\'s', async () => {
    const result = await runCli(['run', '--name', 'broken-line', '--schedule', '0 25 * * *', '--', 'sh', '-c', 'echo still ran; exit 7'], { env: envFor() });
    expect(result.status).toBe(7);
    expect(result.stdout).toBe('still ran\n');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cronbeat: not monitoring this run: --schedule "0 25 \* \* \*" is not valid: .*hour/);
    expect(bySlug('broken-line')).toHaveLength(0);
  });

  it('a name without a letter a–z (another script, digits alone): the job runs, one true line says why', async () => {
    for (const name of ['日本語', '2024']) {
      const result = await runCli(['run', '--name', name, '--schedule', '0 3 * * *', '--', 'sh', '-c', 'echo ran; exit 3'], { env: envFor() });
      expect(result.status).toBe(3);
      expect(result.stdout).toBe('ran\n');
      expect(result.stderr).toBe(`cronbeat: not monitoring this run: --name must have a letter from a to z (accents are dropped; other scripts, and digits alone, give no slug to match it by), not "${name}"\n`);
    }
    expect(agent.store.monitors.list(1).filter((m) => m.name === '2024')).toHaveLength(0);
  });

  it('no CRONBEAT_API_TOKEN: the job runs, and one line says what to set', async () => {
    const env = envFor();
    delete (env as Record<string, string>).CRONBEAT_API_TOKEN;
    const result = await runCli(['run', '--name', 'keyless', '--schedule', '0 3 * * *', '--', 'sh', '-c', 'exit 0'], { env });
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/^cronbeat: not monitoring this run: set CRONBEAT_API_TOKEN to a ping key/);
  });

  it('an agent out of reach: the job runs at once, its pulses wait in the spool and create the monitor when flushed', async () => {
    const dataDir = tempFolder();
    const down = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(['run', '--name', 'offline-job', '--schedule', '0 4 * * *', '--', 'sh', '-c', 'echo done'], {
      env: envFor(dataDir, { CRONBEAT_URL: down }),
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('done\n');
    expect(result.stderr).toMatch(/saved to the spool/);
    expect(bySlug('offline-job')).toHaveLength(0);
    const flushed = await runCli(['spool', 'flush', '--url', agent.url], { env: envFor(dataDir) });
    expect(flushed.status).toBe(0);
    const [monitor] = bySlug('offline-job');
    expect(kindsOf(monitor.id)).toEqual(['start', 'success']);
    expect(existsSync(join(dataDir, 'lines.json'))).toBe(false);
  });

  it('a spooled line pulse whose key was revoked meanwhile: the flush says the agent refused the key, not "unknown monitor"', async () => {
    const dataDir = tempFolder();
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'soon-revoked', scope: 'ping', now: Date.now() });
    const down = `http://127.0.0.1:${await closedPort()}`;
    const env = envFor(dataDir, { CRONBEAT_URL: down, CRONBEAT_API_TOKEN: key.token });
    expect((await runCli(['run', '--name', 'revoked-line', '--schedule', '0 4 * * *', '--', 'true'], { env })).status).toBe(0);
    agent.store.apiTokens.revoke(key.id, Date.now());
    const flushed = await runCli(['spool', 'flush', '--url', agent.url], { env: envFor(dataDir) });
    const lines = flushed.stderr.trim().split('\n');
    expect(lines).toEqual(['cronbeat: dropped 2 spooled pulses for revoked-line: the agent refused them (401 Unauthenticated.)']);
    expect(bySlug('revoked-line')).toHaveLength(0);
  });

  it('runs the job unmonitored when its own options are wrong, says why once, and keeps the job\'s status', async () => {
    for (const mistake of [['some-token', '--name', 'x', '--schedule', '0 3 * * *'], ['--name', 'x', '--graec', '5']]) {
      const ran = join(tempFolder(), 'ran');
      const result = await runCli(['run', ...mistake, '--', 'sh', '-c', `echo once >> ${ran}; exit 4`], { env: envFor() });
      expect(result.status).toBe(4);
      expect(readFileSync(ran, 'utf8')).toBe('once\n');
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^cronbeat: not monitoring this run: /);
    }
    const refused = await runCli(['run', 'some-token', '--name', 'x', '--schedule', '0 3 * * *', '--', 'sh', '-c', 'exit 0'], { env: envFor() });
    expect(refused.stderr).toMatch(/either a monitor token or --name/);
  });
});

describe('cronbeat run --name when the agent refuses the line itself: the job runs, one line says why', () => {
  const job = ['--', 'sh', '-c', 'echo ran; exit 3'];

  it("past the key's max_monitors", async () => {
    const capped = agent.store.apiTokens.create({ companyId: 1, name: 'capped', scope: 'ping', now: Date.now(), maxMonitors: 1 });
    const env = envFor(tempFolder(), { CRONBEAT_API_TOKEN: capped.token });
    expect((await runCli(['run', '--name', 'cap-one', '--schedule', '@daily', '--', 'true'], { env })).status).toBe(0);
    const result = await runCli(['run', '--name', 'cap-two', '--schedule', '@daily', ...job], { env });
    expect(result).toMatchObject({ status: 3, stdout: 'ran\n' });
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cronbeat: start pulse refused by the agent: 403 This key's lines have made 1 monitor, as many as it may \(max_monitors 1\)/);
    expect(bySlug('cap-two')).toHaveLength(0);
  });

  it("a monitor another key's line made", async () => {
    await runCli(['run', '--name', 'shared-name', '--schedule', '@daily', '--', 'true'], { env: envFor() });
    const [monitor] = bySlug('shared-name');
    const before = kindsOf(monitor.id);
    const stranger = agent.store.apiTokens.create({ companyId: 1, name: 'stranger', scope: 'ping', now: Date.now() });
    const result = await runCli(['run', '--name', 'shared-name', '--schedule', '@yearly', ...job], { env: envFor(tempFolder(), { CRONBEAT_API_TOKEN: stranger.token }) });
    expect(result).toMatchObject({ status: 3, stdout: 'ran\n' });
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cronbeat: start pulse refused by the agent: 409 The monitor "shared-name" was made by another key's line/);
    expect(kindsOf(monitor.id)).toEqual(before);
    expect(agent.store.monitors.find(1, monitor.id)!.schedule).toBe('0 0 * * *');
  });

  it('a name spelt with look-alike characters is not monitored, never matched to the plain name', async () => {
    const result = await runCli(['run', '--name', 'ｓｈａｒｅｄ-ｎａｍｅ', '--schedule', '@daily', ...job], { env: envFor() });
    expect(result).toMatchObject({ status: 3, stdout: 'ran\n' });
    expect(result.stderr).toBe(
      'cronbeat: not monitoring this run: --name "ｓｈａｒｅｄ-ｎａｍｅ" is spelt with look-alike characters (ｓ ｈ ａ ｒ ｅ ｄ ｎ ｍ), which could name another job\'s monitor: write it in plain letters\n',
    );
  });
});
