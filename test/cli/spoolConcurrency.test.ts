import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Spool } from '../../agent/client/spool/spool';
import { replay } from '../../agent/client/spool/spoolFlush';
import { tempFolder } from '../helpers/cli';

vi.setConfig({ testTimeout: 60_000 });

function writer(dataDir: string, name: string, count: number, goFile: string): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'spoolWriter.ts'), dataDir, name, String(count), goFile], { stdio: 'inherit' });
  return new Promise((done) => child.on('close', done));
}

describe('the spool under concurrent writers and replays', () => {
  it('loses nothing, mangles nothing and delivers everything exactly once, in each writer order', async () => {
    const dataDir = tempFolder();
    const spool = new Spool(dataDir);
    const delivered: string[] = [];
    const send = async (entry: { pulse: { tokenOrSlug: string } }) => {
      delivered.push(entry.pulse.tokenOrSlug);
      return 'delivered' as const;
    };
    const goFile = join(tempFolder(), 'go');
    const writers = Promise.all(['a', 'b', 'c'].map((name) => writer(dataDir, name, 150, goFile)));
    let writing = true;
    void writers.then(() => (writing = false));
    // Replays (with compactions) run again and again while the writers append; the writers hold
    // their second half until one has delivered, so appends certainly follow a compaction.
    let replaysDuringWrites = 0;
    while (writing) {
      if ((await replay(spool, send, 5_000)).delivered.length > 0) {
        replaysDuringWrites++;
        writeFileSync(goFile, '');
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await writers).toEqual([0, 0, 0]);
    expect(replaysDuringWrites).toBeGreaterThan(0);
    await replay(spool, send, 5_000);

    expect(await spool.pending()).toEqual([]);
    expect(delivered).toHaveLength(450);
    expect(new Set(delivered).size).toBe(450);
    for (const name of ['a', 'b', 'c']) {
      const own = delivered.filter((token) => token.startsWith(`${name}-`));
      expect(own).toEqual(Array.from({ length: 150 }, (_, i) => `${name}-${i}`));
    }
  });
});
