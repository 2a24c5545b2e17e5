import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { discoverAgent } from './discoverAgent';
import { runCli, tempFolder } from '../helpers/cli';

// Real agent, real CLI processes: several seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const { agent: testAgent } = discoverAgent();

async function monitorTokens(): Promise<string[]> {
  return ((await (await testAgent().api('/api/monitors')).json()) as Array<{ token: string }>).map((m) => m.token);
}

describe('crontab discover --undo --delete-monitors', () => {
  it('puts the lines back, then deletes the monitors discover made for them, and only those', async () => {
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    const crontab = '0 3 * * * /usr/local/bin/backup.sh\n*/5 * * * * /usr/bin/poll\n';
    writeFileSync(file, crontab);
    const env = { CRONBEAT_URL: testAgent().url, CRONBEAT_API_TOKEN: testAgent().token, CRONBEAT_DATA_DIR: folder, TZ: 'UTC' };
    const before = await monitorTokens();
    expect((await runCli(['crontab', 'discover', '--file', file], { env })).status).toBe(0);
    const made = (await monitorTokens()).filter((token) => !before.includes(token));
    expect(made).toHaveLength(2);

    const dry = await runCli(['crontab', 'discover', '--undo', '--delete-monitors', '--dry-run', '--file', file], { env });
    expect(dry.stdout).toContain('Would put back 2 commands in');
    expect(dry.stdout).toContain('and delete their monitors');
    expect((await monitorTokens()).filter((token) => made.includes(token))).toHaveLength(2);

    const undone = await runCli(['crontab', 'discover', '--undo', '--delete-monitors', '--file', file], { env });
    expect(undone.stderr).toBe('');
    expect(undone.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(crontab);
    expect(undone.stdout.match(/^Deleted monitor ".*" \(id \d+\)\.$/gm)).toHaveLength(2);
    expect(undone.stdout).not.toContain('Their monitors are kept');
    const after = await monitorTokens();
    expect(after.filter((token) => made.includes(token))).toEqual([]);
    expect(after).toEqual(before);
  });

  it('--delete-monitors without --undo is refused in words', async () => {
    const wrong = await runCli(['crontab', 'discover', '--delete-monitors', '--file', join(tempFolder(), 'none')], { env: { CRONBEAT_API_TOKEN: 'x' } });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--delete-monitors goes with --undo');
  });
});
