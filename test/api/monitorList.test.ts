import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { seedVariedMonitors } from '../helpers/variedMonitors';

/*
 * GET /api/monitors is read a page at a time, each row as SQLite's JSON, and written page by page
 * (agent/db/shownMonitors.ts, agent/domain/formats/jsonArrayBytes.ts), a full key's kept from one listing to the next
 * while unchanged (agent/api/present/monitorJsonMemo.ts); GET /api/monitors/{id} reads the
 * plain row and lets Koa serialise one answer. Their bytes must agree for every monitor, over more
 * rows than a page holds, for a full key and a read-only one, filtered or not.
 */

let agent: TestAgent;
let readOnly: string;
const MONITORS = 2_300;
/** The agent's clock stands still where the monitors were made: the loop changes none of them (it failed the overdue
 * ones while a slow machine read the 2,299 answers one by one, and the list read after them differed). */
const SEEDED_AT = Date.parse('2026-11-25T10:00:00Z');

beforeAll(async () => {
  agent = await startTestAgent({ clock: () => SEEDED_AT });
  readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now: SEEDED_AT }).token;
  seedVariedMonitors(agent.store, MONITORS, 1, SEEDED_AT);
  seedVariedMonitors(agent.store, 3, 2, SEEDED_AT);
  // Channel lists of their own: none, some, and (no row) all of the company's.
  for (const id of [2, 1_001, 2_299]) agent.store.channelRoutes.setChannelIds(1, { type: 'monitor', id }, []);
  for (const id of [3, 1_000, 1_002]) agent.store.channelRoutes.setChannelIds(1, { type: 'monitor', id }, [4, 9]);
  agent.store.monitors.delete(1, 500, SEEDED_AT);
}, 60_000);
afterAll(() => agent.stop());

/*
 * The 4,598 single answers come through node:http over 50 kept-alive connections rather than
 * fetch: the same requests and bytes for half the CPU time (fetch's own work was most of this file's).
 */
const connections = new Agent({ keepAlive: true, maxSockets: 50 });
afterAll(() => connections.destroy());

function get(path: string, token: string, host?: string): Promise<{ status: number | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${token}`, ...(host === undefined ? {} : { Host: host }) };
    request(agent.url + path, { agent: connections, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode, text }));
    })
      .on('error', reject)
      .end();
  });
}

/** Each monitor's own answer, as GET /api/monitors/{id} gives its bytes. */
async function singles(token: string, host?: string): Promise<Array<{ text: string; monitor: Record<string, unknown> }>> {
  const ids = agent.store.monitors.list(1).map((monitor) => monitor.id);
  const answers: Array<{ text: string; monitor: Record<string, unknown> }> = [];
  for (let at = 0; at < ids.length; at += 50) {
    const batch = await Promise.all(
      ids.slice(at, at + 50).map(async (id) => {
        const { status, text } = await get(`/api/monitors/${id}`, token, host);
        expect(status).toBe(200);
        return { text, monitor: JSON.parse(text) as Record<string, unknown> };
      }),
    );
    answers.push(...batch);
  }
  return answers;
}

describe('GET /api/monitors', () => {
  it('is byte for byte the array of each monitor’s own answer, for a full key and a read-only key, filtered or not', async () => {
    for (const token of [agent.token, readOnly]) {
      const each = await singles(token);
      expect(each).toHaveLength(MONITORS - 1);
      const filters: Array<[string, (monitor: Record<string, unknown>) => boolean]> = [
        ['', () => true],
        ['?status=failed', (monitor) => monitor.status === 'failed'],
        ['?status=paused', (monitor) => monitor.status === 'paused'],
        ['?status=running', (monitor) => monitor.status === 'running'],
        ['?project_id=13', (monitor) => monitor.project_id === 13],
        ['?tag=prod', (monitor) => (monitor.tags as string[]).includes('prod')],
        ['?status=new&tag=nightly', (monitor) => monitor.status === 'new' && (monitor.tags as string[]).includes('nightly')],
      ];
      for (const [query, keep] of filters) {
        const response = await agent.api(`/api/monitors${query}`, { token });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const listed = await response.text();
        const expected = `[${each.filter(({ monitor }) => keep(monitor)).map(({ text }) => text).join(',')}]`;
        expect(expected.length, query).toBeGreaterThan(2);
        expect(listed === expected, `GET /api/monitors${query} differs from the monitors' own answers`).toBe(true);
      }
    }
  }, 60_000);

  /*
   * A full key's answers are kept from one listing to the next while a monitor's row, the origin
   * and its channels are unchanged (agent/api/present/monitorJsonMemo.ts): whatever changes in
   * between, the list is still each monitor's own answer now.
   */
  it('is each monitor’s answer now, listed again after its row, its channels, the origin or the monitors themselves changed', async () => {
    const list = async (token: string, host?: string) => (await get('/api/monitors', token, host)).text;
    const expected = async (token: string, host?: string) => `[${(await singles(token, host)).map(({ text }) => text).join(',')}]`;
    // Listed three times: kept, then serialised on its own, then answered from what was kept.
    for (let i = 0; i < 3; i++) expect(await list(agent.token) === (await expected(agent.token)), `listing ${i + 1}`).toBe(true);

    const update = (sql: string, ...ids: number[]) => ids.forEach((id) => agent.store.db.prepare(sql).run(id));
    update('UPDATE monitors SET last_pulse_at = coalesce(last_pulse_at, 0) + 1 WHERE id = ?', 4, 1_000, 2_200);
    update("UPDATE monitors SET name = name || ' (renamed \"é\")' WHERE id = ?", 5, 1_999);
    update('UPDATE monitors SET paused_at = id * 1000, paused_until = NULL WHERE id = ?', 6);
    update("UPDATE monitors SET tags = 'renamed-tag' WHERE id = ?", 7);
    update("UPDATE monitors SET is_alerted = 1, alert_reason = 'kept words', alert_reason_data = NULL WHERE id = ?", 8);
    agent.store.channelRoutes.setChannelIds(1, { type: 'monitor', id: 3 }, [4]);
    agent.store.channelRoutes.setChannelIds(1, { type: 'monitor', id: 9 }, []);
    agent.store.monitors.delete(1, 10, SEEDED_AT);
    agent.store.monitors.create({
      companyId: 1, name: 'made in between', projectId: null, token: 'token-made-in-between', timezone: 'UTC', schedule: '0 3 * * *',
      duration: 5, expectedRunAt: SEEDED_AT + 1, dueAt: SEEDED_AT + 60_000, now: SEEDED_AT,
    });
    for (let i = 0; i < 2; i++) expect(await list(agent.token) === (await expected(agent.token)), `after the changes, listing ${i + 1}`).toBe(true);

    // A read-only key, right after, is never answered a full key's kept bytes; another origin makes other pulse URLs.
    expect(await list(readOnly) === (await expected(readOnly)), 'read-only').toBe(true);
    const other = `localhost:${new URL(agent.url).port}`;
    expect(await list(agent.token, other) === (await expected(agent.token, other)), 'through localhost').toBe(true);
    expect(await list(agent.token) === (await expected(agent.token)), 'back through 127.0.0.1').toBe(true);
  }, 60_000);

  it('answers a company without monitors with an empty array', async () => {
    const response = await agent.api('/api/monitors', { token: agent.tokenFor(3) });
    expect(await response.text()).toBe('[]');
  });
});
