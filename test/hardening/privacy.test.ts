import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redactSecrets } from '../../agent/api/present/redact';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/* The data folder is 0700 and its files 0600; no token, one-time code or pulse body reaches a log. */

const posix = process.platform !== 'win32';
const modeOf = (path: string) => statSync(path).mode & 0o777;

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
});

async function exercise(a: TestAgent, body = 'job output') {
  const monitor = await (await a.api('/api/monitors', { method: 'POST', json: { name: 'm', timezone: 'UTC', schedule: '* * * * *', duration: 5 } })).json();
  const pulse = await fetch(`${a.url}/api/pulse/${monitor.token}`, { method: 'POST', body });
  expect(pulse.status).toBe(200);
  return monitor as { id: number; token: string };
}

describe.runIf(posix)('data folder permissions', () => {
  it('creates the folder 0700 and every file in it 0600 (database, WAL, shared memory, lock)', async () => {
    const dir = join(tempDir(), 'data');
    agent = await startTestAgent({ dataDir: dir });
    await exercise(agent);
    expect(modeOf(dir)).toBe(0o700);
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['cronbeat.db', 'cronbeat.db-wal', 'cronbeat.db-shm', 'cronbeat.lock', 'cronbeat.pid']));
    for (const file of files) expect(modeOf(join(dir, file)).toString(8), file).toBe('600');
  });

  it('tightens a folder and files left open by an earlier version or another tool', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'notes.txt'), 'x', { mode: 0o644 });
    chmodSync(join(dir, 'notes.txt'), 0o644);
    mkdirSync(join(dir, 'sub'));
    agent = await startTestAgent({ dataDir: dir });
    await exercise(agent);
    expect(modeOf(dir)).toBe(0o700);
    for (const file of readdirSync(dir, { withFileTypes: true })) {
      if (file.isFile()) expect(modeOf(join(dir, file.name)).toString(8), file.name).toBe('600');
    }
  });
});

describe('logs', () => {
  it('never carry an API token, a monitor token, a sign-in code or a pulse body, even on an internal error', async () => {
    const lines: string[] = [];
    agent = await startTestAgent({ log: (line) => lines.push(line) });
    const body = 'SECRET-JOB-OUTPUT-4f1e';
    const monitor = await exercise(agent, body);
    // Break the pulses table so the next pulse fails inside the agent: a 500 that is logged.
    agent.store.db.exec('DROP TABLE pulses');
    const failed = await fetch(`${agent.url}/api/pulse/${monitor.token}?rid=x`, { method: 'POST', body, headers: { Authorization: `Bearer ${agent.token}` } });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ message: 'Server Error' });
    expect(lines.join('\n')).toMatch(/Internal error on POST \/api\/pulse\/\[token\]/);
    const log = lines.join('\n');
    for (const secret of [monitor.token, agent.token, body]) expect(log).not.toContain(secret);
  });

  it.each([
    ['GET /api/pulse/3f0b9a7e-1111-4222-8333-944445555666/start?rid=1', '3f0b9a7e'],
    ['token cb_AbC-123_xyz was revoked', 'cb_AbC-123_xyz'],
    ['Authorization: Bearer sk-live-9', 'sk-live-9'],
    ['link http://127.0.0.1:8787/#/sign-in?code=Zm9vYmFy', 'Zm9vYmFy'],
    ['{"code":"Zm9vYmFy"}', 'Zm9vYmFy'],
    ['POST https://api.telegram.org/bot123456:AAH-secret_tok/sendMessage failed', 'AAH-secret_tok'],
    ['POST https://hooks.slack.com/services/T0ALICE01/B0ALICE02/slackTokenOfAlice123456 failed', 'slackTokenOfAlice123456'],
    ['no such hook: /services/T0ALICE01/B0ALICE02/slackTokenOfAlice123456', 'B0ALICE02'],
    ['POST https://discord.com/api/webhooks/123456789012345678/discord_Token-of-alice failed', 'discord_Token-of-alice'],
  ])('redacts %s', (line, secret) => {
    expect(redactSecrets(line)).not.toContain(secret);
  });
});
