import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

async function newMonitor(): Promise<{ id: number } & Record<string, unknown>> {
  const response = await agent.api('/api/monitors', {
    method: 'POST',
    json: { name: 'Long job', timezone: 'UTC', schedule: '*/10 * * * *', duration: 1 },
  });
  return response.json();
}

const setMax = (id: number | string, json: unknown) => agent.api(`/api/monitors/${id}/max-runtime`, { method: 'PUT', json });

describe('PUT /api/monitors/{id}/max-runtime', () => {
  it('sets and removes a max run time; a monitor without one has no max_runtime field at all', async () => {
    const monitor = await newMonitor();
    expect(monitor).not.toHaveProperty('max_runtime');
    const set = await setMax(monitor.id, { max_runtime: 15 });
    expect(set.status).toBe(200);
    expect((await set.json()).max_runtime).toBe(15);
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).max_runtime).toBe(15);
    const cleared = await (await setMax(monitor.id, { max_runtime: null })).json();
    expect(cleared).not.toHaveProperty('max_runtime');
    const changes = await (await agent.api(`/api/monitors/${monitor.id}/changes`)).json();
    expect(changes.map((c: { changes: unknown }) => c.changes)).toEqual([
      { max_runtime: { from: 15, to: null } },
      { max_runtime: { from: null, to: 15 } },
    ]);
  });

  it('refuses bad input with a 422 naming the field, and changes nothing', async () => {
    const monitor = await newMonitor();
    await setMax(monitor.id, { max_runtime: 20 });
    for (const [body, message] of [
      [{ max_runtime: 0 }, 'The max runtime field must be between 1 and 525600.'],
      [{ max_runtime: 2.5 }, 'The max runtime field must be an integer.'],
      [{ max_runtime: '10' }, 'The max runtime field must be an integer.'],
      [{}, 'The max runtime field is required.'],
    ] as const) {
      const response = await setMax(monitor.id, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await response.json()).errors.max_runtime).toEqual([message]);
    }
    const extra = await setMax(monitor.id, { max_runtime: 5, grace: 3 });
    expect(extra.status).toBe(422);
    expect(Object.keys((await extra.json()).errors)).toEqual(['grace']);
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).max_runtime).toBe(20);
    expect((await setMax(999_999, { max_runtime: 5 })).status).toBe(404);
  });
});

describe('a job line with max_runtime', () => {
  const line = (key: string, slug: string, query: Record<string, string>) =>
    fetch(`${agent.url}/api/pulse/key/${key}/${slug}/start?${new URLSearchParams(query)}`);

  it('creates its monitor with it, follows a change, keeps it when the line stops saying it, and refuses a bad one naming the field', async () => {
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'web-02', scope: 'ping', now: Date.now() }).token;
    expect((await line(key, 'long-sync', { create: '1', schedule: '*/10 * * * *', grace: '1', max_runtime: '15' })).status).toBe(201);
    const monitor = () => agent.store.monitors.list(1).find((m) => m.slug === 'long-sync')!;
    expect(monitor().max_runtime).toBe(15);
    await line(key, 'long-sync', { create: '1', schedule: '*/10 * * * *', grace: '1', max_runtime: '25' });
    expect(monitor().max_runtime).toBe(25);
    await line(key, 'long-sync', { create: '1', schedule: '*/10 * * * *', grace: '1' });
    expect(monitor().max_runtime).toBe(25);
    for (const bad of ['0', '1.5', 'ten', '525601']) {
      const response = await line(key, 'long-sync', { create: '1', schedule: '*/10 * * * *', max_runtime: bad });
      expect(response.status, bad).toBe(422);
      expect((await response.json()).errors.max_runtime).toEqual(['The max_runtime field must be a whole number of minutes from 1 to 525600.']);
    }
    expect(monitor().max_runtime).toBe(25);
  });
});
