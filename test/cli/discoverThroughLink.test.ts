import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, cleanEnv, finished, tempFolder } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

// Found following docs/cli.md on a fresh clone: `npx cronbeat crontab discover` in the repository
// starts the CLI through a symlink in a .bin folder (as npm link does), and discover looked for
// its job runner beside the symlink ("cronbeat-run.cjs is missing").
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
// The entry point must live in a stable folder, never under /tmp (discover refuses that).
const shimDir = mkdtempSync('/var/lib/cronbeat-test-');
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(async () => {
  await agent.stop();
  rmSync(shimDir, { recursive: true, force: true });
});

describe('cronbeat started through a .bin symlink (npx, npm link)', () => {
  it('discovers a crontab, installing the runner from beside the real file', async () => {
    const folder = tempFolder();
    const bin = join(folder, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(CLI, join(bin, 'cronbeat'));
    const crontab = join(folder, 'crontab');
    writeFileSync(crontab, '*/5 * * * * /usr/local/bin/poll.sh\n');
    const child = spawn(process.execPath, [join(bin, 'cronbeat'), 'crontab', 'discover', '--file', crontab], {
      env: cleanEnv({ CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: folder, CRONBEAT_SHIM_DIR: shimDir }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const result = await finished(child);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readFileSync(crontab, 'utf8')).toContain(`${join(shimDir, 'cronbeat')} run `);
  });
});
