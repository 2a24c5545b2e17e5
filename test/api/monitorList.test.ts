import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { seedVariedMonitors } from '../helpers/variedMonitors';

/*
 * GET /api/monitors is read a page at a time, each row as SQLite's JSON, and written page by page
 * (agent/db/shownMonitors.ts, agent/domain/formats/jsonPages.ts); GET /api/monitors/{id} reads the
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

function get(path: string, token: string): Promise<{ status: number | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    request(agent.url + path, { agent: connections, headers: { Authorization: `Bearer ${token}` } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode, text }));
    })
      .on('error', reject)
      .end();
  });
}

/** Each monitor's own answer, as GET /api/monitors/{id} gives its bytes. */
async function singles(token: string): Promise<Array<{ text: string; monitor: Record<string, unknown> }>> {
  const ids = agent.store.monitors.list(1).map((monitor) => monitor.id);
  const answers: Array<{ text: string; monitor: Record<string, unknown> }> = [];
  for (let at = 0; at < ids.length; at += 50) {
    const batch = await Promise.all(
      ids.slice(at, at + 50).map(async (id) => {
        const { status, text } = await get(`/api/monitors/${id}`, token);
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

  it('answers a company without monitors with an empty array', async () => {
    const response = await agent.api('/api/monitors', { token: agent.tokenFor(3) });
    expect(await response.text()).toBe('[]');
  });
});
