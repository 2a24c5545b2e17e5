import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor } from './agentFixtures';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempFolder } from '../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../helpers/fakeTime';

// A new user's first hour: "did you mean …", --until without a zone, --grace. Real processes.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;
beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token };
});
afterAll(() => agent.stop());

const stored = async (id: number) => (await agent.api(`/api/monitors/${id}`)).json() as Promise<Record<string, unknown>>;

describe('cronbeat monitor: did you mean …', () => {
  it('suggests the zone of a city or an abbreviation, changing nothing, and takes an old name as its current one', async () => {
    const monitor = await createMonitor(agent, 'zone suggestions');
    const paris = await runCli(['monitor', 'edit', String(monitor.id), '--timezone', 'Paris'], { env });
    expect(paris.status).toBe(2);
    expect(paris.stderr).toBe('cronbeat: --timezone: "Paris" is not a time zone: did you mean Europe/Paris?\n');
    const est = await runCli(['monitor', 'edit', String(monitor.id), '--timezone', 'EST'], { env });
    expect(est.status).toBe(2);
    expect(est.stderr).toMatch(/"EST" is an abbreviation, not a time zone .*did you mean America\/New_York/);
    expect((await stored(monitor.id)).timezone).toBe('UTC');

    const old = await runCli(['monitor', 'edit', String(monitor.id), '--timezone', 'Asia/Calcutta'], { env });
    expect(old.status).toBe(0);
    expect(old.stderr).toContain('Asia/Calcutta is an old name of Asia/Kolkata');
    expect((await stored(monitor.id)).timezone).toBe('Asia/Kolkata');
  });

  it('suggests a schedule cron takes, a monitor name, and a sub-command', async () => {
    const monitor = await createMonitor(agent, 'nightly database backup');
    const macro = await runCli(['monitor', 'edit', String(monitor.id), '--schedule', '@dayly'], { env });
    expect(macro.status).toBe(2);
    expect(macro.stderr).toContain('Did you mean --schedule "@daily"?');
    const days = await runCli(['monitor', 'edit', String(monitor.id), '--schedule', '0 3 * * mon-fry'], { env });
    expect(days.stderr).toContain('Did you mean --schedule "0 3 * * mon-fri"?');
    const english = await runCli(['monitor', 'edit', String(monitor.id), '--schedule', 'every 5 minutes'], { env });
    expect(english.stderr).toContain('Did you mean --schedule "*/5 * * * *"?');
    expect((await stored(monitor.id)).schedule).toBe('* * * * *');

    const name = await runCli(['monitor', 'show', 'nightly databse backup'], { env });
    expect(name.status).toBe(1);
    expect(name.stderr).toBe('cronbeat: No monitor has the id or name "nightly databse backup". Did you mean "nightly database backup"?\n');

    const command = await runCli(['monitr', 'list'], { env });
    expect(command.status).toBe(2);
    expect(command.stderr).toContain('Did you mean "monitor"?');
    const action = await runCli(['monitor', 'eidt', String(monitor.id)], { env });
    expect(action.status).toBe(2);
    expect(action.stderr).toContain('Did you mean "edit"?');
  });
});

describe('cronbeat monitor edit --grace', () => {
  it('sets the grace, still takes --duration, and its help says grace with the API name once', async () => {
    const monitor = await createMonitor(agent, 'grace flag');
    expect((await runCli(['monitor', 'edit', String(monitor.id), '--grace', '45'], { env })).status).toBe(0);
    expect((await stored(monitor.id)).duration).toBe(45);
    expect((await runCli(['monitor', 'edit', String(monitor.id), '--duration', '46'], { env })).status).toBe(0);
    expect((await stored(monitor.id)).duration).toBe(46);
    const shown = await runCli(['monitor', 'show', String(monitor.id)], { env });
    expect(shown.stdout).toContain('Grace:      46 min after each due time');
    const help = (await runCli(['monitor', '--help'])).stdout;
    expect(help).toContain('--grace MIN');
    expect(help).not.toContain('--duration');
    expect(help.match(/`duration`/g)).toHaveLength(1);
  });
});

describe.skipIf(!hasFakeTime)('cronbeat monitor pause --until a time without a zone', () => {
  // The CLI's clock is set to 12:00 UTC two days ahead (13:00 or 14:00 in Paris), so its times are in the agent's future too.
  const day = new Date(Date.now() + 2 * 86_400_000);
  const fakeNow = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 12);
  const inParis = (iso: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.parse(iso));
  const parisDay = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(ms);
  const cliEnv = () => ({ ...env, ...fakeTimeEnv(new Date(fakeNow).toISOString()), TZ: 'Europe/Paris' });

  it('takes the machine zone and says so; a time still ahead today is today', async () => {
    const monitor = await createMonitor(agent, 'pause at six');
    const result = await runCli(['monitor', 'pause', String(monitor.id), '--until', '18:00'], { env: cliEnv() });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("--until 18:00 has no zone: it is taken in this machine's zone, Europe/Paris.\n");
    const until = (await stored(monitor.id)).paused_until as string;
    expect(inParis(until)).toBe(`${parisDay(fakeNow)}, 18:00`);
    expect(result.stdout).toBe(`Paused "pause at six" until ${parisDay(fakeNow)} 18:00 Europe/Paris.\n`);
  });

  it('takes a time already past today as tomorrow, and says so', async () => {
    const monitor = await createMonitor(agent, 'pause at eight');
    const result = await runCli(['monitor', 'pause', String(monitor.id), '--until', '8:00'], { env: cliEnv() });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('08:00 has passed today, so it means tomorrow.');
    expect(inParis((await stored(monitor.id)).paused_until as string)).toBe(`${parisDay(fakeNow + 86_400_000)}, 08:00`);
  });

  it('reads a date and time without a zone on the machine clock, and refuses what is no time', async () => {
    const monitor = await createMonitor(agent, 'pause on a date');
    const date = parisDay(fakeNow + 86_400_000);
    const result = await runCli(['monitor', 'pause', String(monitor.id), '--until', `${date} 07:30`], { env: cliEnv() });
    expect(result.status).toBe(0);
    expect(inParis((await stored(monitor.id)).paused_until as string)).toBe(`${date}, 07:30`);
    const bad = await runCli(['monitor', 'pause', String(monitor.id), '--until', '25:00'], { env: cliEnv() });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--until must be a time such as 18:00');
  });
});

describe('cronbeat crontab discover --grace', () => {
  it('names the grace in its help (the API name once) and still takes --duration', async () => {
    const help = (await runCli(['crontab', '--help'])).stdout;
    expect(help).toContain('--grace MIN');
    expect(help).not.toContain('--duration');
    expect(help.match(/`duration`/g)).toHaveLength(1);
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '*/5 * * * * /usr/local/bin/poll.sh\n');
    for (const flag of ['--grace', '--duration']) {
      const dry = await runCli(['crontab', 'discover', '--file', file, '--dry-run', flag, '12'], { env: { ...env, CRONBEAT_DATA_DIR: folder } });
      expect(dry.status, flag).toBe(0);
      expect(dry.stdout, flag).toContain('grace 12 min');
    }
  });
});
