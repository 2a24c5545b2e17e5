import { randomUUID } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closedPort, runCli } from '../helpers/cli';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';
import { startTestAgent } from '../helpers/testAgent';

/*
 * A pulse spooled while the agent is away, on a disk with a little room left, less than the
 * pulse's line: the write falls short without an error. Said to be saved, it would be a cut line,
 * set aside unread later. On a real small tmpfs (root).
 */
vi.setConfig({ testTimeout: 60_000 });

const disk = mountSmallDisk(1);
afterAll(() => {
  if (disk) unmountSmallDisk(disk);
});

describe.skipIf(disk === null)('a pulse spooled on a nearly full disk', () => {
  it('is never kept cut short: the spool holds only whole lines, and ping says the pulse was not kept', async () => {
    const dataDir = join(disk!, 'data');
    const url = `http://127.0.0.1:${await closedPort()}`;
    const first = await runCli(['ping', 'tok-first', '--url', url, '--data-dir', dataDir]);
    expect(first.status).toBe(0);
    const filler = fillDisk(disk!);
    const fd = openSync(filler, 'r+');
    ftruncateSync(fd, Math.max(0, statSync(filler).size - 4096)); // a page: less than the next line
    closeSync(fd);

    const big = await runCli(['ping', 'tok-big', '--url', url, '--data-dir', dataDir, '--stdin'], { input: 'x'.repeat(20_000) });
    const lines = readFileSync(join(dataDir, 'spool.jsonl'), 'utf8').split('\n').filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line.slice(0, 80)).not.toThrow();
    expect(big.status).toBe(1);
    expect(big.stderr).toMatch(/^cronbeat: pulse not sent and not kept: cannot reach .*; the spool in .* cannot be written \(ENOSPC\)\n$/);
  });
});

describe.skipIf(disk === null)('a line run on a full disk', () => {
  it('leaves no half-made file behind when it cannot remember its monitor (lines.json.….tmp, two a run, for good)', async () => {
    const dataDir = join(disk!, 'line-data');
    const agent = await startTestAgent();
    try {
      const key = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
      mkdirSync(dataDir, { mode: 0o700 });
      fillDisk(disk!);
      const result = await runCli(['run', '--name', 'full disk line', '--schedule', '0 3 * * *', '--url', agent.url, '--data-dir', dataDir, '--', 'sh', '-c', 'exit 2'], {
        env: { CRONBEAT_API_TOKEN: key },
      });
      expect(result.status).toBe(2);
      expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await agent.stop();
    }
  });
});

describe('a spool past its bounds, trimmed on a full disk', () => {
  const big = mountSmallDisk(12);
  afterAll(() => {
    if (big) unmountSmallDisk(big);
  });

  it.skipIf(big === null)('leaves no half-written copy behind (spool.jsonl.PID.1.tmp, megabytes each, on a disk already full)', async () => {
    const dataDir = join(big!, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const url = `http://127.0.0.1:${await closedPort()}`;
    // 9 MB of pulses with their output: past the spool's 8 MB, so the next replay trims it first.
    const lines = Array.from({ length: 100 }, (_, i) =>
      JSON.stringify({ id: randomUUID(), sentAt: Date.now() - 1000 + i, baseUrl: url, pulse: { token: 'tok', signal: 'success', key: randomUUID(), body: 'x'.repeat(90_000) } }),
    );
    writeFileSync(join(dataDir, 'spool.jsonl'), `${lines.join('\n')}\n`, { mode: 0o600 });
    const filler = fillDisk(big!);
    // Full to the last page: a lock file could not even take its pid, and stayed, empty, read as
    // held by a process still writing it: for ten minutes every ping and run queued behind no one.
    const full = await runCli(['spool', 'flush', '--data-dir', dataDir]);
    expect(full.status).toBe(1);
    expect(readdirSync(dataDir).sort()).toEqual(['spool.jsonl']);
    // Room for the two locks' pids, not for the trimmed copy: it stayed too, half written.
    const fd = openSync(filler, 'r+');
    ftruncateSync(fd, statSync(filler).size - 2 * 4096);
    closeSync(fd);
    await runCli(['spool', 'flush', '--data-dir', dataDir]);
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'))).toEqual([]);
  });
});
