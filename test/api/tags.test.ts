import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const create = async (name: string, tags?: unknown) =>
  agent.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '0 3 * * *', duration: 5, ...(tags === undefined ? {} : { tags }) } });

describe('monitor tags', () => {
  it('are set on create and edit, stored sorted and in lower case, and filter the list', async () => {
    const db = await (await create('db dump', ['Prod', 'db', 'prod'])).json();
    expect(db.tags).toEqual(['db', 'prod']);
    const web = await (await create('web logs')).json();
    expect(web.tags).toEqual([]);
    const edited = await (await agent.api(`/api/monitors/${web.id}`, { method: 'PATCH', json: { tags: ['prod', 'server:web-01'] } })).json();
    expect(edited.tags).toEqual(['prod', 'server:web-01']);
    const names = async (query: string) => ((await (await agent.api(`/api/monitors${query}`)).json()) as Array<{ name: string }>).map((m) => m.name);
    expect(await names('?tag=prod')).toEqual(['db dump', 'web logs']);
    expect(await names('?tag=server:web-01')).toEqual(['web logs']);
    expect(await names('?tag=DB')).toEqual(['db dump']);
    expect(await names('?tag=nothing')).toEqual([]);
    const cleared = await (await agent.api(`/api/monitors/${db.id}`, { method: 'PATCH', json: { tags: [] } })).json();
    expect(cleared.tags).toEqual([]);
  });

  it('refuses a bad tag or a bad filter with a 422 naming the field, changing nothing', async () => {
    for (const tags of [['has space'], ['-lead'], 'prod', [42], Array.from({ length: 21 }, (_, i) => `t${i}`)]) {
      const answer = await create('bad', tags);
      expect(answer.status, JSON.stringify(tags)).toBe(422);
      expect(Object.keys((await answer.json()).errors)[0]).toMatch(/^tags/);
    }
    expect((await agent.api('/api/monitors?tag=a%20b')).status).toBe(422);
    expect(agent.store.monitors.list(1).some((m) => m.name === 'bad')).toBe(false);
  });
});
