import { statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../../agent/agent';
import { runCli, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/testAgent';

/**
 * An agent on `dataDir` in this process: what the token commands write is read by the same code
 * as in `cronbeat serve`, for a fraction of a process's CPU (serve itself is tested below).
 */
const agentOn = (dataDir: string): Promise<RunningAgent> => startAgent({ dataDir, port: 0, log: () => {} });

describe('cronbeat token', () => {
  it('create prints the token alone on one line, and the token works against an agent on the folder', async () => {
    const dataDir = join(tempDir(), 'data');
    const created = await runCli(['token', 'create', '--name', 'laptop', '--data-dir', dataDir]);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^cb_[A-Za-z0-9_-]{43}\n$/);
    const token = created.stdout.trim();
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);

    const agent = await agentOn(dataDir);
    try {
      const ok = await fetch(`${agent.url}/api/servers`, { headers: { Authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it('create --scope makes a key that may do only that, and list shows each scope', async () => {
    const dataDir = join(tempDir(), 'data');
    const ping = (await runCli(['token', 'create', '--name', 'web-01', '--scope', 'ping', '--data-dir', dataDir])).stdout.trim();
    const wrong = await runCli(['token', 'create', '--scope', 'admin', '--data-dir', dataDir]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/--scope must be one of full, read-only, ping, badge, not "admin"/);
    const listed = JSON.parse((await runCli(['token', 'list', '--json', '--data-dir', dataDir])).stdout);
    expect(listed).toEqual([expect.objectContaining({ name: 'web-01', scope: 'ping' })]);
    const agent = await agentOn(dataDir);
    try {
      const refused = await fetch(`${agent.url}/api/monitors`, { headers: { Authorization: `Bearer ${ping}` } });
      expect(refused.status).toBe(403);
    } finally {
      await agent.close();
    }
  });

  it('creates the company it is asked for, and takes the folder from CRONBEAT_DATA_DIR', async () => {
    const dataDir = tempDir();
    const created = await runCli(['token', 'create', '--company', '7'], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(created.status).toBe(0);
    const listed = await runCli(['token', 'list', '--json'], { env: { CRONBEAT_DATA_DIR: dataDir } });
    const tokens = JSON.parse(listed.stdout);
    expect(tokens).toEqual([expect.objectContaining({ id: 1, company_id: 7, name: 'cli', revoked_at: null })]);
    expect(listed.stdout).not.toContain(created.stdout.trim());
  });

  it('lists tokens as the plain table the other commands print, never their secrets', async () => {
    const dataDir = tempDir();
    const token = (await runCli(['token', 'create', '--name', 'laptop', '--data-dir', dataDir])).stdout.trim();
    const listed = await runCli(['token', 'list', '--data-dir', dataDir], { env: { TZ: 'Europe/Paris' } });
    expect(listed.status).toBe(0);
    const [heading, row, ...rest] = listed.stdout.trimEnd().split('\n');
    expect(heading).toMatch(/^ID\s+COMPANY ID\s+NAME\s+SCOPE\s+CREATED AT\s+LAST USED AT\s+REVOKED AT\s+MAX MONITORS$/);
    // A time people read: on this machine's clock with its zone, not an ISO timestamp.
    expect(row).toMatch(/^1\s+1\s+laptop\s+full\s+\d{4}-\d\d-\d\d \d\d:\d\d Europe\/Paris\s+-\s+-\s+100$/);
    expect(rest).toEqual([]);
    expect(listed.stdout).not.toContain('(index)');
    expect(listed.stdout).not.toContain(token);
  });

  it('--max-monitors sets how many monitors a token\'s job lines may make, on create or later with limit', async () => {
    const dataDir = tempDir();
    expect((await runCli(['token', 'create', '--scope', 'ping', '--max-monitors', '5', '--data-dir', dataDir])).status).toBe(0);
    const maxOf = async () => JSON.parse((await runCli(['token', 'list', '--json', '--data-dir', dataDir])).stdout)[0].max_monitors;
    expect(await maxOf()).toBe(5);
    expect((await runCli(['token', 'limit', '1', '--max-monitors', '250', '--data-dir', dataDir])).stdout).toBe("Token 1's job lines may make 250 monitors.\n");
    expect(await maxOf()).toBe(250);
    expect((await runCli(['token', 'limit', '1', '--max-monitors', 'default', '--data-dir', dataDir])).status).toBe(0);
    expect(await maxOf()).toBe(100);
    for (const bad of ['0', '10001', 'lots']) {
      const refused = await runCli(['token', 'create', '--max-monitors', bad, '--data-dir', dataDir]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`--max-monitors must be a whole number from 1 to 10000, or \`default\`, not "${bad}"`);
    }
    expect((await runCli(['token', 'limit', '1', '--data-dir', dataDir])).status).toBe(2);
    expect((await runCli(['token', 'limit', '9', '--max-monitors', '3', '--data-dir', dataDir])).status).toBe(1);
  });

  it('revoke locks a token out of a running agent at once', async () => {
    const dataDir = tempDir();
    const token = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    const agent = await agentOn(dataDir);
    try {
      const revoked = await runCli(['token', 'revoke', '1', '--data-dir', dataDir]);
      expect(revoked.status).toBe(0);
      const response = await fetch(`${agent.url}/api/monitors`, { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(401);
    } finally {
      await agent.close();
    }
    const again = await runCli(['token', 'revoke', '1', '--data-dir', dataDir]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^cronbeat: No live token has the ID 1\.\n$/);
  });

  it("revoke gives new pulse tokens to the monitors the key's job lines held, beside a running agent, and says so", async () => {
    const dataDir = tempDir();
    const ping = (await runCli(['token', 'create', '--scope', 'ping', '--data-dir', dataDir])).stdout.trim();
    const agent = await agentOn(dataDir);
    try {
      const made = await fetch(`${agent.url}/api/pulse/key/${ping}/db-dump?create=1&schedule=0+3+*+*+*`);
      expect(made.status).toBe(201);
      const told = made.headers.get('x-cronbeat-monitor-token')!;
      const revoked = await runCli(['token', 'revoke', '1', '--data-dir', dataDir]);
      expect(revoked.status).toBe(0);
      expect(revoked.stdout).toBe(
        'Token 1 revoked. 1 monitor its job lines held has a new pulse token (its holder was told the old ones); hand them to the key that replaces it: cronbeat monitor hand 1 --key NEW_KEY_ID.\n',
      );
      // The token its line was told no longer pulses the monitor.
      expect((await fetch(`${agent.url}/api/pulse/${told}`)).status).toBe(404);
    } finally {
      await agent.close();
    }
  });

  it('explains a missing action in one line with exit code 2', async () => {
    const result = await runCli(['token', '--data-dir', tempDir()]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('cronbeat serve', () => {
  it('prints one listening line, binds 127.0.0.1, and exits 0 on SIGINT', async () => {
    const serve = await startServe(['--data-dir', tempDir()]);
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${serve.url}/api/servers`);
    expect(response.status).toBe(401);
    expect(await serve.stop('SIGINT')).toBe(0);
  });

  it('says in one line when the port is taken', async () => {
    // Whoever holds the port, the refusal is the same: a plain listener costs no agent process.
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    try {
      const port = String((taken.address() as AddressInfo).port);
      const second = await runCli(['serve', '--port', port, '--data-dir', tempDir()]);
      expect(second.status).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`^cronbeat: Port ${port} .* already in use.*\\n$`));
    } finally {
      taken.close();
    }
  });
});

describe('cronbeat --help', () => {
  it('lists the commands, and each command explains itself with an example', async () => {
    const overview = await runCli(['--help']);
    expect(overview.status).toBe(0);
    expect(overview.stdout).toMatch(/serve/);
    expect(overview.stdout).toMatch(/token/);
    for (const command of ['serve', 'token']) {
      const help = await runCli([command, '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(/Usage: cronbeat/);
      expect(help.stdout).toMatch(/Example/);
    }
  });

  it('answers an unknown command in one line, exit code 2', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^cronbeat: Unknown command "frobnicate"/);
  });
});

describe('cronbeat argument handling', () => {
  it('leaves -h and --help after `--` to the job', async () => {
    // No agent is listening, so the pulses are spooled; the job itself must run.
    const result = await runCli(['run', '00000000-0000-4000-8000-000000000000', '--url', 'http://127.0.0.1:9', '--', 'sh', '-c', 'echo ran', '-h'], {
      env: { CRONBEAT_DATA_DIR: tempDir() },
    });
    expect(result.stdout).toContain('ran');
    expect(result.stdout).not.toContain('Usage:');
    expect(result.status).toBe(0);
  });

  it('answers an unknown option in one line with exit code 2', async () => {
    const result = await runCli(['token', 'list', '--no-such-option', '--data-dir', tempDir()]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^cronbeat: .*no-such-option/);
  });

  it('prints the package version', async () => {
    const result = await runCli(['--version']);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('cronbeat token on a new data folder', () => {
  it('creates the database private to its owner (0600)', async () => {
    const dataDir = join(tempDir(), 'fresh');
    expect((await runCli(['token', 'create', '--data-dir', dataDir])).status).toBe(0);
    expect(statSync(join(dataDir, 'cronbeat.db')).mode & 0o777).toBe(0o600);
  });
});
