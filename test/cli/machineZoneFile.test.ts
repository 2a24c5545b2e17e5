import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * TZ naming a zone file, as libc and cron read it: `TZ=:/etc/localtime` (a common setting that
 * spares programs a stat of /etc/localtime), `TZ=/usr/share/zoneinfo/Asia/Tokyo`. Node's Intl does
 * not read that form and reports no zone, and the CLI took this machine's zone to be UTC: a
 * monitor created without --timezone (or by discover, or a job's line) expected its runs hours off.
 */

const ZONEINFO = '/usr/share/zoneinfo';
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

describe.skipIf(!existsSync(join(ZONEINFO, 'Europe/Paris')))('TZ as a zone file', () => {
  const link = join(tempFolder(), 'localtime');
  const cases: [string, () => string, string][] = [
    ['a path after ":"', () => `:${ZONEINFO}/Europe/Paris`, 'Europe/Paris'],
    ['a path without ":"', () => `${ZONEINFO}/Asia/Tokyo`, 'Asia/Tokyo'],
    ['a link to a zone file, as /etc/localtime is', () => (symlinkSync(`${ZONEINFO}/America/New_York`, link), `:${link}`), 'America/New_York'],
  ];
  for (const [what, tz, zone] of cases) {
    it(`${what}: monitor create without --timezone takes ${zone}`, async () => {
      const name = `zone file ${zone}`;
      const value = tz();
      const result = await runCli(['monitor', 'create', name, '--schedule', '0 3 * * *', '--url', agent.url], { env: { CRONBEAT_API_TOKEN: agent.token, TZ: value } });
      expect(result.stderr).toBe('');
      expect(result.stdout, `TZ=${value}`).toContain(`(at 03:00 ${zone})`);
      expect(agent.store.monitors.list(1).find((m) => m.name === name)?.timezone).toBe(zone);
    });
  }
});
