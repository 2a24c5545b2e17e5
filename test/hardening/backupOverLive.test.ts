import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startAgent, type RunningAgent } from '../../agent/agent';
import { runCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';

/*
 * `backup --out` names a file that is renamed into place. Named through another path (a data folder
 * reached by a symlink, as /var/lib/cronbeat often is) or as one of the database's own sidecars,
 * that rename would put an old snapshot over the live database, or over its write-ahead log and with
 * it every change since the last checkpoint, under the running agent.
 */
vi.setConfig({ testTimeout: 60_000 });

let serving: ServeProcess | undefined;
let reading: RunningAgent | undefined;
afterEach(async () => {
  await serving?.stop();
  serving = undefined;
  await reading?.close();
  reading = undefined;
});

describe('backup --out on the live database', () => {
  it.each([
    ['the database, named through the real folder of a symlinked data folder', 'cronbeat.db', 'real'],
    ['its write-ahead log', 'cronbeat.db-wal', 'link'],
    ['its shared-memory index', 'cronbeat.db-shm', 'link'],
  ])('is refused for %s, and the agent keeps every change', async (_label, name, through) => {
    const parent = tempFolder();
    const real = join(parent, 'real');
    const link = join(parent, 'link');
    const token = (await runCli(['token', 'create', '--data-dir', real])).stdout.trim();
    symlinkSync(real, link);
    serving = await startServe(['--data-dir', link]);
    const create = (name: string) =>
      fetch(`${serving!.url}/api/monitors`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, timezone: 'UTC', schedule: '0 3 * * *', duration: 30 }),
      });
    expect((await create('nightly')).status).toBe(201);

    const out = join(through === 'real' ? real : link, name);
    const result = await runCli(['backup', '--out', out, '--data-dir', link]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([`cronbeat: --out ${out} is the database the backup copies (or one of its files): give a file elsewhere.`]);

    // A change after it, then the agent dies without closing (a crash, the power): what it committed is on disk.
    expect((await create('weekly')).status).toBe(201);
    await serving.stop('SIGKILL');
    serving = undefined;
    // Any agent reads the folder back; one in this process costs a fraction of a second `serve`.
    reading = await startAgent({ dataDir: link, port: 0, log: () => {} });
    const monitors = await (await fetch(`${reading.url}/api/monitors`, { headers: { Authorization: `Bearer ${token}` } })).json();
    expect(monitors.map((m: { name: string }) => m.name)).toEqual(['nightly', 'weekly']);
  });
});
