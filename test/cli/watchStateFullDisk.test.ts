import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';
import { startTestAgent } from '../helpers/testAgent';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';

/*
 * `crontab watch --once` from cron with its data folder on a full disk: the state it could not
 * save was left as an empty `crontab-watch-ID.json.PID.tmp`, one more at every run, for good.
 * On a real small tmpfs (root).
 */
vi.setConfig({ testTimeout: 60_000 });

const disk = mountSmallDisk(1);
afterAll(() => {
  if (disk) unmountSmallDisk(disk);
});

describe.skipIf(disk === null)('crontab watch --once on a full disk', () => {
  it('leaves no half-saved state behind', async () => {
    const agent = await startTestAgent();
    try {
      const created = await agent.api('/api/servers', { method: 'POST', json: { name: 'web 1', ip_address: '10.0.0.7', identifier: 'web-1' } });
      expect(created.status).toBe(201);
      const dataDir = join(disk!, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      const crontab = join(tempFolder(), 'crontab');
      const watch = () => runCli(['crontab', 'watch', '--server', 'web-1', '--once', '--file', crontab, '--url', agent.url, '--data-dir', dataDir], { env: { CRONBEAT_API_TOKEN: agent.token } });
      writeFileSync(crontab, '0 3 * * * /bin/true\n');
      expect((await watch()).status).toBe(0);
      fillDisk(disk!);
      writeFileSync(crontab, '0 4 * * * /bin/true\n');
      const full = await watch();
      expect(full.status).toBe(1);
      expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await agent.stop();
    }
  });
});
