import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * The API's answers to a fixed set of requests, recorded before the contract moved to
 * agent/contract/ and compared byte for byte since: a refactoring of the layers must
 * not change one character a client reads. Only what is random per run is replaced: the
 * agent's origin, monitor tokens and generated secrets. The clock is fixed and advanced by a
 * second before each request, so every timestamp is the same on every run.
 *
 * To record again after a deliberate change of the API: delete fixtures/api-bodies.txt and run
 * this file; review the diff like any other.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const START = Date.parse('2026-03-08T06:00:00Z');
let now = START;
let agent: TestAgent;

beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now, certificateChecks: { timeoutMs: 2_000 } });
});
afterAll(() => agent?.stop());

type Step = [method: string, path: string, body?: unknown, headers?: Record<string, string>];

/** The requests, in order; `{monitor}` and friends are the ids the earlier answers gave. */
function steps(ids: Record<string, string>): Step[] {
  const m = ids.monitor;
  const s = ids.server;
  const c = ids.channel;
  return [
    // servers
    ['POST', '/api/servers', { name: 'Backup box', ip_address: '192.168.1.20', identifier: 'backup-01' }],
    ['POST', '/api/servers', { name: '', ip_address: 'nope', identifier: 'a b' }],
    ['POST', '/api/servers', { name: 42 }],
    ['POST', '/api/servers', 'not json'],
    ['GET', '/api/servers'],
    ['GET', '/api/servers?q=backup'],
    ['GET', `/api/servers/${s}`],
    ['PATCH', `/api/servers/${s}`, { name: 'Backup box 2' }],
    ['PATCH', `/api/servers/${s}`, { nmae: 'typo' }],
    ['PATCH', `/api/servers/${s}`, {}],
    ['GET', '/api/servers/999999'],
    ['GET', '/api/servers/abc'],
    ['POST', '/api/servers/alert', { username: 'root', server_id: 'backup-01', command: '0 3 * * * /usr/bin/backup' }],
    ['POST', '/api/servers/alert', { username: 'root', server_id: 'backup-01', command: 'x', change: 'moved' }],
    ['POST', '/api/servers/heartbeat', { server_id: 'backup-01', interval_seconds: 60, jobs: 3 }],
    ['POST', '/api/servers/heartbeat', { server_id: 'backup-01', interval_seconds: 0 }],
    ['GET', `/api/servers/${s}/alerts`],
    // channels
    ['POST', '/api/channels', { name: 'Hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook' } }],
    ['POST', '/api/channels', { name: 'Phone', kind: 'ntfy', settings: { topic: 'backups', access_token: 'tk_secret' }, quiet_hours: { start: '22:00', end: '07:00', timezone: 'Europe/Berlin' } }],
    ['POST', '/api/channels', { name: 'Mail', kind: 'email', settings: { host: 'smtp.example.com', from: 'a@example.com', to: 'b@example.com, c@example.com', password: 'pw' } }],
    ['POST', '/api/channels', { name: 'Bad', kind: 'pigeon', settings: {} }],
    ['POST', '/api/channels', { name: 'Bad', kind: 'telegram', settings: { bot_token: 'x', chat_id: 'y' } }],
    ['POST', '/api/channels', { name: 'Bad', kind: 'email', settings: { host: 'a/b', port: 0, tls: 'ssl', from: 'a,b', to: 'nope' } }],
    ['POST', '/api/channels', { name: 'Bad', kind: 'slack', settings: { webhook_url: 'ftp://x' }, quiet_hours: { start: '25:00', end: '7', timezone: 'Mars/Base' } }],
    ['GET', '/api/channels'],
    ['GET', `/api/channels/${c}`],
    ['PATCH', `/api/channels/${c}`, { name: 'Hook 2', settings: { url: 'http://127.0.0.1:9/other' } }],
    ['PATCH', `/api/channels/${c}`, { kind: 'slack' }],
    ['PATCH', `/api/channels/${c}`, { settings: { secret: 'short' } }],
    ['DELETE', `/api/channels/${c}`],
    ['DELETE', `/api/channels/${ids.channel2}`],
    ['DELETE', `/api/channels/${ids.channel3}`],
    ['GET', '/api/channels'],
    // monitors
    ['POST', '/api/monitors', { name: 'Nightly backup', timezone: 'Europe/Berlin', schedule: '0 3 * * *', duration: 30 }],
    ['POST', '/api/monitors', { name: 'Hourly', timezone: 'UTC', schedule: '@hourly', duration: 5, project_id: 7, channel_ids: null }],
    ['POST', '/api/monitors', { name: 'x', timezone: 'Nowhere/City', schedule: '61 * * * *', duration: 0 }],
    ['POST', '/api/monitors', { name: 'x', timezone: 'UTC', schedule: '* * *', duration: 1.5, project_id: -1, channel_ids: [0] }],
    ['POST', '/api/monitors', { name: 'x', timezone: 'UTC', schedule: '* * * * *', duration: 1, channel_ids: [999] }],
    ['POST', '/api/monitors', {}],
    ['GET', '/api/monitors'],
    ['GET', '/api/monitors?status=new'],
    ['GET', '/api/monitors?status=sleeping'],
    ['GET', '/api/monitors?project_id=7'],
    ['GET', '/api/monitors?project_id=x'],
    ['GET', `/api/monitors/${m}`],
    ['PATCH', `/api/monitors/${m}`, { duration: 45, schedule: '30 2 * * 1-5' }],
    ['PATCH', `/api/monitors/${m}`, { schedule: '0 0 31 2 *' }],
    ['PATCH', `/api/monitors/${m}`, { colour: 'red' }],
    ['GET', `/api/pulse/${ids.token}/start?rid=run-1`],
    ['GET', `/api/monitors/${m}`],
    ['POST', `/api/pulse/${ids.token}`, 'all good', { 'Content-Type': 'text/plain', 'Idempotency-Key': '"k-1"', 'X-Cronbeat-Duration-Ms': '1234' }],
    ['POST', `/api/pulse/${ids.token}`, 'again', { 'Idempotency-Key': 'k-1' }],
    ['POST', `/api/pulse/${ids.token}/fail`, 'disk full', { 'X-Cronbeat-Duration-Ms': 'soon' }],
    ['POST', `/api/pulse/${ids.token}/1`, 'disk full'],
    ['POST', `/api/pulse/${ids.token}/explode`],
    ['GET', '/api/pulse/not-a-token'],
    ['GET', `/api/monitors/${m}`],
    ['GET', `/api/monitors/${m}/pulses`],
    ['GET', `/api/monitors/${m}/pulses?per_page=2&page=2`],
    ['GET', `/api/monitors/${m}/pulses?per_page=101`],
    ['POST', `/api/monitors/${m}/pause`, { until: '2026-03-09T06:40:00Z' }],
    ['POST', `/api/monitors/${m}/pause`, { until: 'tomorrow' }],
    ['GET', '/api/monitors?status=paused'],
    ['POST', `/api/monitors/${m}/resume`],
    ['POST', `/api/monitors/${m}/pause`, {}],
    ['PATCH', `/api/monitors/${m}`, { channel_ids: [] }],
    // notifications
    ['GET', '/api/notifications'],
    ['GET', '/api/notifications?kinds=all&unread=1&per_page=5'],
    ['GET', '/api/notifications?kinds=some'],
    ['PATCH', `/api/notifications/${ids.notification}`, { read: true }],
    ['PATCH', `/api/notifications/${ids.notification}`, { read: 'yes' }],
    ['GET', `/api/notifications/${ids.notification}/deliveries`],
    ['POST', '/api/notifications/read'],
    ['GET', '/api/notifications?unread=true'],
    // certificates: nothing listens on port 9, so the check fails the same way every time
    ['POST', '/api/ssl-certificates', { hostname: '127.0.0.1', port: 9, warn_days: 20 }],
    ['POST', '/api/ssl-certificates', { hostname: 'https://example.com/x', port: 70000, warn_days: 0 }],
    ['POST', '/api/ssl-certificates', { hostname: '127.0.0.1', port: 9 }],
    ['GET', '/api/ssl-certificates'],
    ['PATCH', `/api/ssl-certificates/${ids.certificate}`, { channel_ids: null }],
    ['PATCH', `/api/ssl-certificates/${ids.certificate}`, { port: 1 }],
    ['DELETE', `/api/ssl-certificates/${ids.certificate}`],
    // the end of things
    ['DELETE', `/api/monitors/${m}`],
    ['GET', `/api/monitors/${m}`],
    ['DELETE', `/api/servers/${s}`],
    ['GET', '/api/servers'],
    ['GET', '/api/monitors', undefined, { Authorization: 'Bearer wrong' }],
  ];
}

it('answers the recorded requests with the recorded bodies, byte for byte', async () => {
  const ids: Record<string, string> = {};
  const secrets = new Map<string, string>();
  const remember = (value: unknown, kind: string) => {
    if (typeof value === 'string' && value && !secrets.has(value)) secrets.set(value, `<${kind}${secrets.size + 1}>`);
  };
  const transcript: string[] = [];
  // Steps name ids learnt from earlier answers, so the list is rebuilt before each request.
  for (let i = 0; i < steps(ids).length; i += 1) {
    const [method, path, body, headers = {}] = steps(ids)[i];
    now += 1_000;
    const json = body !== undefined && typeof body !== 'string';
    const response = await agent.api(path, {
      method,
      headers,
      ...(json ? { json: body } : { body: body as string | undefined }),
      ...(headers.Authorization ? { token: null } : {}),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    learn(path, method, response.status, parsed, ids, remember);
    // Notification ids are random UUIDs: each gets a placeholder the first time it is seen.
    for (const uuid of text.match(UUID) ?? []) remember(uuid, 'uuid');
    let shown = text.split(agent.url).join('<origin>');
    for (const [secret, placeholder] of secrets) shown = shown.split(secret).join(placeholder);
    const shownPath = [...secrets].reduce((p, [secret, placeholder]) => p.split(secret).join(placeholder), path);
    transcript.push(`${method} ${shownPath}\n${response.status} ${response.headers.get('content-type') ?? ''}\n${shown}\n`);
  }
  await expect(transcript.join('\n')).toMatchFileSnapshot('./fixtures/api-bodies.txt');
});

/** The ids and random values later steps need, taken from the first answer that gives them. */
function learn(
  path: string,
  method: string,
  status: number,
  body: unknown,
  ids: Record<string, string>,
  remember: (value: unknown, kind: string) => void,
) {
  if (!body || typeof body !== 'object') return;
  const record = body as Record<string, unknown>;
  if (method === 'POST' && status === 201) {
    const id = String(record.id);
    if (path === '/api/servers') ids.server ??= id;
    if (path === '/api/monitors' && !ids.monitor) {
      ids.monitor = id;
      ids.token = String(record.token);
    }
    if (path === '/api/channels') {
      const key = !ids.channel ? 'channel' : !ids.channel2 ? 'channel2' : 'channel3';
      ids[key] = id;
    }
    if (path === '/api/ssl-certificates') ids.certificate ??= id;
  }
  remember(record.token, 'token');
  remember(record.generated_secret, 'secret');
  if (path.startsWith('/api/notifications') && Array.isArray(record.data) && record.data.length > 0) {
    ids.notification ??= String((record.data[0] as { id: number }).id);
  }
}
