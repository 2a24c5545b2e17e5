import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { discoverAgent } from './discoverAgent';
import { runCli, tempFolder } from '../helpers/cli';
import { lineRunFor, LineRun } from '../../agent/cli/run/runLine';

vi.setConfig({ testTimeout: 30_000 });

const { agent: testAgent } = discoverAgent();

// Debian's cron takes any zone of /usr/share/zoneinfo as CRON_TZ, EST and EST5EDT included.
describe('crontab discover and CRON_TZ names cron takes', () => {
  it('monitors lines under CRON_TZ=EST and EST5EDT in the zone with the same clock, says so, and skips an unknown zone', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    const crontab = [
      'CRON_TZ=EST',
      '0 3 * * * /usr/local/bin/est-job',
      '0 4 * * * /usr/local/bin/est-job-2',
      'CRON_TZ=EST5EDT',
      '0 4 * * * /usr/local/bin/eastern-job',
      'CRON_TZ=Mars/Olympus',
      '0 5 * * * /usr/local/bin/mars-job',
      '',
    ].join('\n');
    writeFileSync(file, crontab);
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: folder, TZ: 'UTC' };

    const dry = await runCli(['crontab', 'discover', '--file', file, '--dry-run'], { env });
    expect(dry.stdout).toMatch(/line 2: "\/usr\/local\/bin\/est-job" {2}0 3 \* \* \* {2}America\/Panama/);

    const result = await runCli(['crontab', 'discover', '--file', file], { env });
    expect(result.status).toBe(0);
    const monitors = (await (await testAgent().api('/api/monitors')).json()) as Array<{ name: string; timezone: string }>;
    expect(monitors.map((m) => [m.name, m.timezone])).toEqual([
      ['/usr/local/bin/est-job', 'America/Panama'],
      ['/usr/local/bin/est-job-2', 'America/Panama'],
      ['/usr/local/bin/eastern-job', 'America/New_York'],
    ]);
    expect(result.stdout.match(/CRON_TZ=EST is /g)).toHaveLength(1);
    expect(result.stdout).toContain('CRON_TZ=EST is the zone EST of the tz database (/usr/share/zoneinfo/EST), which keeps the clock of America/Panama: monitored in America/Panama.');
    expect(result.stdout).toContain('CRON_TZ=EST5EDT is the zone EST5EDT of the tz database (/usr/share/zoneinfo/EST5EDT), which keeps the clock of America/New_York: monitored in America/New_York.');
    expect(result.stderr).toMatch(/^cronbeat: line 7 skipped: CRON_TZ "Mars\/Olympus" is not a time zone of this machine \(cron finds none in \/usr\/share\/zoneinfo\)/);
    expect(readFileSync(file, 'utf8').split('\n')[6]).toBe('0 5 * * * /usr/local/bin/mars-job');
  });
});

describe('a --by-name line under CRON_TZ=EST', () => {
  const context = (timezone: string) => ({
    apiKey: 'ping-key',
    baseUrl: 'http://127.0.0.1:8787',
    spoolDir: null,
    machineZone: 'UTC',
    now: Date.parse('2026-11-25T12:00:00Z'),
    ownLine: () => ({ schedule: '0 3 * * *', timezone }),
  });

  it('is monitored, in the zone with the same clock, as discover would', () => {
    expect(lineRunFor({ name: 'est-job' }, context('EST'))).toBeInstanceOf(LineRun);
  });

  it('is not monitored under a zone the machine does not have, and says why', () => {
    expect(lineRunFor({ name: 'mars-job' }, context('Mars/Olympus'))).toEqual({
      problem: expect.stringMatching(/^CRON_TZ "Mars\/Olympus" is not a time zone of this machine/),
    });
  });
});
