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
    json: { name: 'Flaky job', timezone: 'UTC', schedule: '*/10 * * * *', duration: 1 },
  });
  return response.json();
}

const setAlertAfter = (id: number | string, json: unknown) => agent.api(`/api/monitors/${id}/alert-after`, { method: 'PUT', json });

describe('PUT /api/monitors/{id}/alert-after', () => {
  it('sets it; a monitor that alerts at its first failure (the default) has no alert_after field at all', async () => {
    const monitor = await newMonitor();
    expect(monitor).not.toHaveProperty('alert_after');
    const set = await setAlertAfter(monitor.id, { alert_after: 3 });
    expect(set.status).toBe(200);
    expect((await set.json()).alert_after).toBe(3);
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).alert_after).toBe(3);
    // A failure short of the alert: failed, counted, and still watched (its next run is due).
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
    const counting = await (await agent.api(`/api/monitors/${monitor.id}`)).json();
    expect(counting).toMatchObject({ status: 'failed', alert_after: 3, failures_in_a_row: 1 });
    expect(counting.next_due_at).not.toBeNull();
    expect(counting).not.toHaveProperty('flapping_since');
    const back = await (await setAlertAfter(monitor.id, { alert_after: 1 })).json();
    expect(back).not.toHaveProperty('failures_in_a_row');
    expect(back).not.toHaveProperty('alert_after');
    const changes = await (await agent.api(`/api/monitors/${monitor.id}/changes`)).json();
    expect(changes.map((c: { changes: unknown }) => c.changes)).toEqual([{ alert_after: { from: 3, to: 1 } }, { alert_after: { from: 1, to: 3 } }]);
  });

  it('refuses bad input with a 422 naming the field, and changes nothing', async () => {
    const monitor = await newMonitor();
    await setAlertAfter(monitor.id, { alert_after: 5 });
    for (const [body, message] of [
      [{ alert_after: 0 }, 'The alert after field must be between 1 and 100.'],
      [{ alert_after: 101 }, 'The alert after field must be between 1 and 100.'],
      [{ alert_after: 'abc' }, 'The alert after field must be an integer.'],
      [{ alert_after: 2.5 }, 'The alert after field must be an integer.'],
      [{ alert_after: null }, 'The alert after field is required.'],
      [{}, 'The alert after field is required.'],
    ] as const) {
      const response = await setAlertAfter(monitor.id, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await response.json()).errors.alert_after, JSON.stringify(body)).toEqual([message]);
    }
    const extra = await setAlertAfter(monitor.id, { alert_after: 2, grace: 3 });
    expect(extra.status).toBe(422);
    expect(Object.keys((await extra.json()).errors)).toEqual(['grace']);
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).alert_after).toBe(5);
    expect((await setAlertAfter(999_999, { alert_after: 2 })).status).toBe(404);
    expect((await setAlertAfter('abc', { alert_after: 2 })).status).toBe(404);
  });
});

describe('a job line with alert_after', () => {
  const line = (key: string, slug: string, query: Record<string, string>) =>
    fetch(`${agent.url}/api/pulse/key/${key}/${slug}/start?${new URLSearchParams(query)}`);

  it('creates its monitor with it, follows a change, keeps it when the line stops saying it, and refuses a bad one naming the field', async () => {
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'web-03', scope: 'ping', now: Date.now() }).token;
    expect((await line(key, 'flaky-sync', { create: '1', schedule: '*/10 * * * *', grace: '1', alert_after: '3' })).status).toBe(201);
    const monitor = () => agent.store.monitors.list(1).find((m) => m.slug === 'flaky-sync')!;
    expect(monitor().alert_after).toBe(3);
    await line(key, 'flaky-sync', { create: '1', schedule: '*/10 * * * *', grace: '1', alert_after: '5' });
    expect(monitor().alert_after).toBe(5);
    await line(key, 'flaky-sync', { create: '1', schedule: '*/10 * * * *', grace: '1' });
    expect(monitor().alert_after).toBe(5);
    for (const bad of ['0', '101', 'abc', '2.5', '']) {
      const response = await line(key, 'flaky-sync', { create: '1', schedule: '*/10 * * * *', alert_after: bad });
      expect(response.status, bad).toBe(422);
      expect((await response.json()).errors.alert_after).toEqual(['The alert_after field must be a whole number from 1 to 100.']);
    }
    expect(monitor().alert_after).toBe(5);
  });
});
