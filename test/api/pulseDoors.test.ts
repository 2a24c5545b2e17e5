import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A pulse comes in by one of two doors (agent/api/pulses/plainPulses.ts): a plain one beside Koa for
 * the common pulse, and Koa's pulse routes for everything else. A token with one character
 * percent-encoded names the same monitor but is never taken by the plain door, so each request
 * below is sent both ways, to two monitors alike, and must be answered and recorded alike.
 */

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(agent.url + path);
    const outgoing = request({ host: url.hostname, port: url.port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (!['date', 'connection', 'keep-alive'].includes(name)) kept[name] = String(value);
        }
        resolve({ status: response.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks).toString() });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

let made = 0;
async function newMonitor(): Promise<{ id: number; token: string }> {
  const response = await agent.api('/api/monitors', { method: 'POST', json: { name: `door ${++made}`, timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } });
  return response.json();
}

/** The token spelt so that only Koa's door takes it: its first character percent-encoded. */
const throughKoa = (token: string) => `%${token.charCodeAt(0).toString(16).toUpperCase()}${token.slice(1)}`;

/** What a monitor's newest pulse and state say, without what differs between two monitors. */
function recorded(monitorId: number) {
  const [pulse] = agent.store.pulses.page(monitorId, 1, 0);
  const monitor = agent.store.monitors.find(1, monitorId)!;
  const { id, monitor_id, received_at, ...kept } = pulse ?? ({} as Record<string, unknown>);
  return {
    pulse: pulse ? { ...kept, receivedLately: Date.now() - Number(received_at) < 60_000 } : null,
    count: agent.store.pulses.count(monitorId),
    state: { is_alerted: monitor.is_alerted, running_rid: monitor.running_rid, alert_reason: monitor.alert_reason, running: monitor.running_since !== null },
  };
}

const big = 'x'.repeat(150 * 1024);
const cases: Array<{ name: string; method: string; path: string; headers?: Record<string, string>; body?: string; before?: (path: string) => Promise<unknown> }> = [
  { name: 'a GET', method: 'GET', path: '' },
  { name: 'a HEAD', method: 'HEAD', path: '' },
  { name: 'a POST with the output', method: 'POST', path: '/0', headers: { 'Content-Type': 'text/plain' }, body: 'backup done\n' },
  { name: 'a start with a rid', method: 'GET', path: '/start?rid=r-1' },
  { name: 'a fail', method: 'GET', path: '/fail' },
  { name: 'an exit code', method: 'POST', path: '/3', body: 'disk full' },
  { name: 'a trailing slash', method: 'GET', path: '/' },
  { name: 'an empty rid and another parameter', method: 'GET', path: '?rid=&utm=x' },
  { name: 'a measured duration, a send time and a key', method: 'POST', path: '/0', headers: { 'Idempotency-Key': '"run-42"', 'X-Cronbeat-Duration-Ms': '1500', 'X-Cronbeat-Sent-At': new Date(Date.now() - 5_000).toISOString() } },
  { name: 'a body over the limit', method: 'POST', path: '', body: big },
  { name: 'an exit code out of range (400)', method: 'GET', path: '/300' },
  { name: 'two rids (422)', method: 'GET', path: '?rid=a&rid=b' },
  { name: 'a bad duration header (422)', method: 'GET', path: '', headers: { 'X-Cronbeat-Duration-Ms': 'soon' } },
  {
    name: 'a key reused for another pulse (422)',
    method: 'GET',
    path: '/fail',
    headers: { 'Idempotency-Key': 'k-1' },
    before: (path) => send('GET', path, { 'Idempotency-Key': 'k-1' }),
  },
  { name: 'a retry under the same key (stored once)', method: 'GET', path: '', headers: { 'Idempotency-Key': 'k-2' }, before: (path) => send('GET', path, { 'Idempotency-Key': 'k-2' }) },
];

describe('both pulse doors answer and record alike', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const [plain, koa] = [await newMonitor(), await newMonitor()];
      const plainPath = `/api/pulse/${plain.token}${c.path}`;
      const koaPath = `/api/pulse/${throughKoa(koa.token)}${c.path}`;
      await c.before?.(`/api/pulse/${plain.token}${c.path.split('?')[0]}`);
      await c.before?.(`/api/pulse/${throughKoa(koa.token)}${c.path.split('?')[0]}`);
      const plainAnswer = await send(c.method, plainPath, c.headers, c.body);
      const koaAnswer = await send(c.method, koaPath, c.headers, c.body);
      expect(plainAnswer).toEqual(koaAnswer);
      expect(recorded(plain.id)).toEqual(recorded(koa.id));
    });
  }

  it('an unknown token: the same 404, for GET, HEAD and POST', async () => {
    for (const method of ['GET', 'HEAD', 'POST']) {
      const plainAnswer = await send(method, '/api/pulse/no-such-token', {}, method === 'POST' ? 'out' : undefined);
      const koaAnswer = await send(method, `/api/pulse/${throughKoa('no-such-token')}`, {}, method === 'POST' ? 'out' : undefined);
      expect(plainAnswer.status).toBe(404);
      expect(plainAnswer).toEqual(koaAnswer);
    }
  });

  it('the plain door takes what it should: a pulse through it is in the history', async () => {
    const monitor = await newMonitor();
    const answer = await send('GET', `/api/pulse/${monitor.token}`);
    expect(answer).toMatchObject({ status: 200, body: 'OK', headers: { 'access-control-allow-origin': '*', 'content-type': 'text/plain; charset=utf-8' } });
    expect(agent.store.pulses.count(monitor.id)).toBe(1);
  });
});
