import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { discoverAgent } from './discoverAgent';
import { runCli, tempFolder } from '../helpers/cli';

// Real agent, real CLI processes: several seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const { agent: testAgent } = discoverAgent();

async function monitors(): Promise<Array<{ id: number; name: string; token: string }>> {
  return (await testAgent().api('/api/monitors')).json();
}

/** The monitor token each line of a crontab runs with (null: not through cronbeat). */
function tokensOf(file: string): Array<string | null> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => / run (?:--url \S+ )?(\S+) -- "\$@"/.exec(line)?.[1] ?? null);
}

describe('crontab discover after --undo', () => {
  it('reuses the monitors an earlier discover made for the same lines, and makes one for a new line', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    const crontab = 'CRON_TZ=Europe/Paris\n0 3 * * * /usr/local/bin/backup.sh\n0 3 * * * /usr/local/bin/backup.sh\n*/5 * * * * /usr/bin/poll%stdin\n';
    writeFileSync(file, crontab);
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: folder, TZ: 'UTC' };
    const before = (await monitors()).length;

    expect((await runCli(['crontab', 'discover', '--file', file], { env })).status).toBe(0);
    const wired = tokensOf(file);
    expect(new Set(wired.filter(Boolean)).size).toBe(3);
    expect((await runCli(['crontab', 'discover', '--undo', '--file', file], { env })).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(crontab);

    writeFileSync(file, `${crontab}0 4 * * * /usr/local/bin/other.sh\n`);
    const again = await runCli(['crontab', 'discover', '--file', file], { env });
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Line 2: the monitor an earlier discover made for it');
    expect(again.stdout).toMatch(/Created 1 monitor, reused 3 and rewrote/);
    expect(tokensOf(file).slice(0, 4)).toEqual(wired.slice(0, 4));
    expect((await monitors()).length - before).toBe(4);

    const third = await runCli(['crontab', 'discover', '--file', file], { env });
    expect(third.stdout).toMatch(/4 jobs already run through cronbeat/);
    expect((await monitors()).length - before).toBe(4);
  });

  it('makes a new monitor when the one an earlier discover made was deleted', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '15 2 * * * /usr/local/bin/rotate-logs\n');
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: folder, TZ: 'UTC' };
    await runCli(['crontab', 'discover', '--file', file], { env });
    const [first] = tokensOf(file);
    await runCli(['crontab', 'discover', '--undo', '--file', file], { env });
    const made = (await monitors()).find((m) => m.token === first)!;
    expect((await testAgent().api(`/api/monitors/${made.id}`, { method: 'DELETE' })).status).toBeLessThan(300);

    const again = await runCli(['crontab', 'discover', '--file', file], { env });
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/Created 1 monitor and rewrote/);
    const [second] = tokensOf(file);
    expect(second).not.toBe(first);
    expect((await monitors()).some((m) => m.token === second)).toBe(true);
  });
});
