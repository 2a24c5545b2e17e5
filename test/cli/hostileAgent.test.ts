import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { xmlProblem } from '../helpers/xml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished, runCli, spawnCli, tempFolder } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { databaseFile } from '../../agent/dataFolder/dataDir';

/*
 * Nothing an agent says reaches the terminal as a control sequence: the real CLI (a child
 * process) against a hostile agent (a local HTTP server written here, answering with names full
 * of ESC, OSC 52, BEL, C1, bidi overrides and U+2028), and against a real agent whose database
 * holds such names from before they were refused. Its stdout and stderr carry none of them;
 * `--json` lines stay JSON that reads back to the agent's own text.
 */

/** OSC 52 writes the reader's clipboard; ESC[2J clears the screen; U+009B is a one-byte CSI; U+202E turns the text around. */
const EVIL = 'backup\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b31m\u202etxt.exe\u2028\u0085 done\ud800';
/** Every byte that must not reach a terminal, as the CLI's UTF-8 output decodes. */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufffd]/;

function expectSafe(text: string): void {
  const found = CONTROL.exec(text);
  expect(found, `U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${found?.index} in ${JSON.stringify(text)}`).toBeNull();
}

const monitor = (id: number) => ({
  id,
  name: EVIL,
  company_id: 1,
  project_id: null,
  token: 'tok',
  timezone: 'UTC',
  schedule: '0 3 * * *',
  last_run_at: '2026-11-25T03:00:00.000000Z',
  duration: 5,
  is_alerted: 1,
  alert_reason: `No pulse\u001b[8m hidden`,
  deleted_at: null,
  created_at: '2026-11-25T03:00:00.000000Z',
  updated_at: '2026-11-25T03:00:00.000000Z',
  status: 'failed',
  next_due_at: null,
  last_pulse_at: null,
  paused_at: null,
  paused_until: null,
  pulse_url: 'http://x/api/pulse/tok\u001b]8;;http://evil\u0007',
  slug: 'backup',
  tags: ['prod'],
  channel_ids: null,
  alert_reason_data: null,
});

const notification = {
  id: '0b3c7a2e-8f7d-4a55-9b8e-3d2f1c0a9e11',
  type: 'App\\Notifications\\MonitorFailedNotification',
  created_at: '2026-11-25T14:02:11.000000Z',
  data: { type: 'monitor', type_id: 1, title: `${EVIL} failed\nfake line`, description: 'No pulse\u001b[2J' },
};

/** A hostile agent: every answer carries EVIL; the live stream announces one notification after the first look. */
function hostileAgent(): Promise<{ url: string; server: Server }> {
  const streams = new Set<ServerResponse>();
  let looked = false;
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"type":"ready"}\n\n');
      looked = false; // each follower first looks at an empty list, then is told of one notification
      streams.add(res);
      res.on('close', () => streams.delete(res));
    } else if (path === '/api/notifications') {
      json(res, 200, { data: looked ? [notification] : [] });
      if (!looked) {
        looked = true;
        setImmediate(() => streams.forEach((stream) => stream.write('data: {"type":"notification.created"}\n\n')));
      }
    } else if (path === '/api/monitors') json(res, 200, [monitor(1)]);
    else if (path === '/api/monitors/1' && req.method === 'GET') json(res, 200, monitor(1));
    else json(res, 422, { message: `The name\u001b]52;c;aGk=\u0007 is bad\n\u009b2J`, errors: { name: ['\u001b[2J'] } });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })),
  );
}

let hostile: { url: string; server: Server };
beforeAll(async () => {
  hostile = await hostileAgent();
});
afterAll(() => {
  hostile.server.closeAllConnections();
  return new Promise((done) => hostile.server.close(done));
});

const env = () => ({ CRONBEAT_URL: hostile.url, CRONBEAT_API_TOKEN: 'cb_test' });

/** Follows the hostile agent until one notification line is printed, then stops it with SIGTERM. */
async function followOnce(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const child = spawnCli(['notifications', '--follow', ...args], { env: env() });
  const result = finished(child);
  let stdout = '';
  await new Promise<void>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve();
    });
  });
  child.kill('SIGTERM');
  return result;
}

describe('a hostile agent cannot write on the terminal', () => {
  it('notifications --follow prints its notification as one line, control characters written out', async () => {
    const { stdout, stderr } = await followOnce([]);
    expectSafe(stdout);
    expectSafe(stderr);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(stdout).toContain('backup\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2J\\u009b31m\\u202etxt.exe');
  });

  it('notifications --follow --json prints JSON that reads back to what the agent said', async () => {
    const { stdout, stderr } = await followOnce(['--json']);
    expectSafe(stdout);
    expectSafe(stderr);
    expect(JSON.parse(stdout)).toEqual(notification);
  });

  it('monitor list, show and their --json', async () => {
    for (const args of [['monitor', 'list'], ['monitor', 'show', '1'], ['monitor', 'list', '--json'], ['monitor', 'show', '1', '--json']]) {
      const result = await runCli(args, { env: env() });
      expect(result.status, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expectSafe(result.stdout);
      expectSafe(result.stderr);
      if (args.includes('--json')) expect(JSON.stringify(JSON.parse(result.stdout))).toContain(JSON.stringify(EVIL).slice(1, -1));
    }
  });

  it('an error quoting its answer is one line without control characters', async () => {
    const result = await runCli(['monitor', 'edit', '1', '--grace', '5'], { env: env() });
    expect(result.status).toBe(1);
    expectSafe(result.stderr);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('The name\\u001b]52;c;aGk=\\u0007 is bad \\u009b2J');
  });
});

describe('a job cannot write on the terminal either', () => {
  it('crontab scan shows a crontab line holding escapes with them written out', async () => {
    const file = join(tempFolder(), 'crontab');
    writeFileSync(file, `0 3 * * * printf '\u001b]52;c;aGk=\u0007\u009b2J' # ${EVIL.replace('\ud800', '')}\n`);
    for (const args of [['crontab', 'scan', '--file', file], ['crontab', 'scan', '--file', file, '--json']]) {
      const result = await runCli(args);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain('\\u001b]52;c;aGk=');
      expectSafe(result.stdout);
      expectSafe(result.stderr);
    }
  });
});

describe('names stored before they were refused', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.stop());

  it('are printed safely by monitor list and token list, and badges stay well-formed XML', async () => {
    const created = await agent.api('/api/monitors', { method: 'POST', json: { name: 'plain', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
    const { id } = (await created.json()) as { id: number };
    const db = new Database(databaseFile(agent.dataDir));
    // SQLite keeps UTF-8, which has no lone surrogates: those stay a door-only case, tested above.
    db.prepare('UPDATE monitors SET name = ? WHERE id = ?').run(EVIL.replace('\ud800', ''), id);
    db.close();
    agent.store.apiTokens.create({ companyId: 1, name: `laptop\u001b]52;c;aGk=\u0007\u009b`, now: Date.now() });
    const badgeKey = agent.store.apiTokens.create({ companyId: 1, name: 'readme', scope: 'badge', now: Date.now() }).token;

    const list = await runCli(['monitor', 'list'], { env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token } });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain('backup\\u001b]52');
    expectSafe(list.stdout);
    const tokens = await runCli(['token', 'list', '--data-dir', agent.dataDir]);
    expect(tokens.status, tokens.stderr).toBe(0);
    expect(tokens.stdout).toContain('laptop\\u001b]52');
    expectSafe(tokens.stdout);

    const svg = await (await fetch(`${agent.url}/api/badges/${badgeKey}/monitors/${id}.svg`)).text();
    expect(xmlProblem(svg)).toBeNull();
    expectSafe(svg);
  });
});
