import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { until } from '../helpers/until';

/*
 * A PATCH changes only the fields it names. A server's, channel's or maintenance window's edit
 * read the resource when its request began and wrote every field from that reading once its body
 * had come: an edit of another field made while the body was on its way (a slow client, a big
 * body) was written back over, lost without a word. Each is now read once the body is in.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

/**
 * Sends a PATCH of `path` with `body` in two parts, and runs `meanwhile` between them, once the
 * agent has taken the PATCH's key (its own, so its first use says the request is being read);
 * resolves with the PATCH's status and answer.
 */
function slowPatch(path: string, body: unknown, meanwhile: () => Promise<void>): Promise<{ status: number; json: Record<string, unknown> }> {
  const text = Buffer.from(JSON.stringify(body));
  const key = agent.store.apiTokens.create({ companyId: 1, name: 'slow', now: agent.clock() });
  const used = () => agent.store.db.prepare('SELECT last_used_at FROM api_tokens WHERE id = ?').pluck().get(key.id);
  return new Promise((resolve, reject) => {
    const req = request(
      `${agent.url}${path}`,
      { method: 'PATCH', headers: { Authorization: `Bearer ${key.token}`, 'Content-Type': 'application/json', 'Content-Length': String(text.length) } },
      (response) => {
        let answer = '';
        response.setEncoding('utf8').on('data', (chunk) => (answer += chunk)).on('end', () => resolve({ status: response.statusCode!, json: JSON.parse(answer) }));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write(text.subarray(0, 1));
    until(used, 'the PATCH to be taken')
      .then(meanwhile)
      .then(() => req.end(text.subarray(1)), reject);
  });
}

const patch = async (path: string, json: unknown) => {
  const response = await agent.api(path, { method: 'PATCH', json });
  expect(response.status).toBe(200);
};
const create = async (path: string, json: unknown) => {
  const response = await agent.api(path, { method: 'POST', json });
  expect(response.status).toBe(201);
  return response.json();
};

describe('an edit of one field while a PATCH of another is on its way', () => {
  it('keeps a server edit of another field', async () => {
    const server = await create('/api/servers', { name: 'Backup box', ip_address: '10.0.0.1', identifier: 'backup-01' });
    const path = `/api/servers/${server.id}`;
    const slow = await slowPatch(path, { ip_address: '10.0.0.2' }, () => patch(path, { name: 'Renamed' }));
    expect(slow.status).toBe(200);
    expect(slow.json).toMatchObject({ name: 'Renamed', ip_address: '10.0.0.2' });
    expect(await (await agent.api(path)).json()).toMatchObject({ name: 'Renamed', ip_address: '10.0.0.2' });
  });

  it('keeps a channel edit of another field', async () => {
    const channel = await create('/api/channels', { name: 'Phone', kind: 'ntfy', settings: { topic: 'backups' } });
    const path = `/api/channels/${channel.id}`;
    const quiet = { start: '22:00', end: '07:00', timezone: 'UTC' };
    const slow = await slowPatch(path, { name: 'Phone 2' }, () => patch(path, { quiet_hours: quiet }));
    expect(slow.status).toBe(200);
    expect(slow.json).toMatchObject({ name: 'Phone 2', quiet_hours: quiet });
    expect(await (await agent.api(path)).json()).toMatchObject({ name: 'Phone 2', quiet_hours: quiet });
  });

  it('keeps a maintenance window edit of another field', async () => {
    const window = await create('/api/maintenance-windows', { name: 'db upgrade', schedule: '0 3 * * 0', timezone: 'UTC', duration: 60 });
    const path = `/api/maintenance-windows/${window.id}`;
    const slow = await slowPatch(path, { name: 'db upgrade 2' }, () => patch(path, { duration: 90 }));
    expect(slow.status).toBe(200);
    expect(slow.json).toMatchObject({ name: 'db upgrade 2', duration: 90 });
    expect(await (await agent.api(path)).json()).toMatchObject({ name: 'db upgrade 2', duration: 90 });
  });
});
