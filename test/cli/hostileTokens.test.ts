import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * What discover writes from an agent's answer is a token, whoever answered: a crontab line holds
 * a monitor's token unquoted, a timer's drop-in in its ExecStartPre= line, a crontab its ping key
 * as CRONBEAT_API_TOKEN=KEY. An agent that is not ours (or a proxy in plain HTTP between) answering
 * with a line break in them would add a crontab line or a unit directive of its own, run as the
 * crontab's user: often root. The agent here is a local HTTP server answering with such tokens.
 */

const INJECTED = 'touch /tmp/cronbeat-pwned';
const LINES = `\n* * * * * root ${INJECTED}\nExecStartPre=/bin/${INJECTED}\n`;
const TOKEN = `9287848c-0c2a-495c-9ac8-b328afaa836e${LINES}`;
/** What POST /api/monitors answers with: a token, or else an id (written into the line's comment), holding lines. */
let answered: { id: number | string; token: string } = { id: 7, token: TOKEN };

function hostileAgent(): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/api/monitors' && req.method === 'GET') answer(200, []);
    else if (path === '/api/monitors' && req.method === 'POST') answer(201, { ...answered, name: 'job', schedule: '0 3 * * *', timezone: 'UTC', duration: 60 });
    else if (path === '/api/keys' && req.method === 'POST') answer(201, { id: 9, key: `cb_${TOKEN}` });
    else answer(404, { message: 'Not found.' });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

let agent: { url: string; server: Server };
// The entry point's folder must be a stable one, not a temporary folder (crontab/shim.ts).
const shimDir = mkdtempSync('/var/lib/cronbeat-test-');
chmodSync(shimDir, 0o755); // a system unit's jobs run as any user
beforeAll(async () => {
  agent = await hostileAgent();
});
afterAll(async () => {
  rmSync(shimDir, { recursive: true, force: true });
  await new Promise((done) => agent.server.close(done));
});

const env = () => ({ CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: 'cb_test', CRONBEAT_DATA_DIR: tempFolder(), TZ: 'UTC' });

/** Every file under `folder`, read. */
function allText(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('a token from the agent that is not one is never written', () => {
  for (const byName of [false, true]) {
    it(`crontab discover${byName ? ' --by-name' : ''} stops, the crontab as it was`, async () => {
      answered = { id: 7, token: TOKEN };
      const folder = tempFolder();
      const file = join(folder, 'crontab');
      writeFileSync(file, '0 3 * * * /usr/local/bin/backup.sh\n');
      chmodSync(file, 0o600);
      const result = await runCli(['crontab', 'discover', ...(byName ? ['--by-name'] : []), '--file', file, '--shim-dir', shimDir], { env: env() });
      expect(result.status, result.stdout + result.stderr).toBe(1);
      expect(result.stderr).toContain(`the agent answered with a ${byName ? 'ping key' : 'monitor token'} that is not one`);
      expect(readFileSync(file, 'utf8')).toBe('0 3 * * * /usr/local/bin/backup.sh\n');
      expect(allText(folder)).not.toContain(INJECTED);
    });
  }

  it('crontab discover stops at a monitor id that is not one', async () => {
    answered = { id: `7${LINES}`, token: '9287848c-0c2a-495c-9ac8-b328afaa836e' };
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '0 3 * * * /usr/local/bin/backup.sh\n');
    const result = await runCli(['crontab', 'discover', '--file', file, '--shim-dir', shimDir], { env: env() });
    expect(result.status, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toContain('the agent answered with a monitor id that is not one');
    expect(allText(folder)).not.toContain(INJECTED);
  });

  for (const what of ['token', 'id']) it(`timers discover writes no drop-in for a monitor ${what} that is not one`, async () => {
    answered = what === 'token' ? { id: 7, token: TOKEN } : { id: `7${LINES}`, token: '9287848c-0c2a-495c-9ac8-b328afaa836e' };
    const root = tempFolder();
    const units = join(root, 'etc/systemd/system');
    mkdirSync(join(units, 'timers.target.wants'), { recursive: true });
    writeFileSync(join(units, 'backup.timer'), '[Timer]\nOnCalendar=daily\n');
    writeFileSync(join(units, 'backup.service'), '[Service]\nExecStart=/usr/local/bin/backup.sh\n');
    symlinkSync('../backup.timer', join(units, 'timers.target.wants', 'backup.timer'));
    const result = await runCli(['timers', 'discover', '--root', root, '--shim-dir', shimDir], { env: env() });
    expect(result.status, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toContain(`the agent answered with a monitor ${what} that is not one`);
    expect(existsSync(join(units, 'backup.service.d'))).toBe(false);
    expect(allText(root)).not.toContain(INJECTED);
  });
});
