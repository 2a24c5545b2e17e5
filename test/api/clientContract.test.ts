import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * What a client walking the API from outside found answered wrongly: each a request a client may
 * send by mistake, which must get a 4xx naming the field and change nothing, never a 200 that
 * quietly did something else.
 */

let agent: TestAgent;

beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

async function answer(path: string, init?: Parameters<TestAgent['api']>[1]) {
  const response = await agent.api(path, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('an id in the query past 2^53', () => {
  // 9007199254740993 has 16 digits but no double holds it: read as a number it becomes ...992,
  // another id than the client sent, which a filter must never quietly use.
  const UNSAFE = '9007199254740993';

  it('is refused by GET /api/monitors?project_id=, as a longer one is', async () => {
    const { status, body } = await answer(`/api/monitors?project_id=${UNSAFE}`);
    expect(status).toBe(422);
    expect(body.errors).toEqual({ project_id: ['The project id field must be a positive integer.'] });
    expect((await answer('/api/monitors?project_id=9007199254740991')).status).toBe(200);
  });

  it('is refused by GET /api/maintenance-windows?monitor_id=, never told as another id', async () => {
    const { status, body } = await answer(`/api/maintenance-windows?monitor_id=${UNSAFE}`);
    expect(status).toBe(422);
    expect(body.errors).toEqual({ monitor_id: ['The monitor id field must be a positive integer.'] });
  });

  it('in a body list is told once, not once per rule it breaks', async () => {
    const { status, body } = await answer('/api/maintenance-windows', {
      method: 'POST',
      json: { schedule: '0 3 * * 0', timezone: 'UTC', duration: 60, monitor_ids: [9007199254740993] },
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ 'monitor_ids.0': ['The monitor ids field must be a list of monitor ids.'] });
  });
});

describe('PATCH /api/settings', () => {
  it('refuses a body that names neither setting, as every other PATCH does', async () => {
    for (const sent of [{}, undefined]) {
      const { status, body } = await answer('/api/settings', { method: 'PATCH', ...(sent ? { json: sent } : {}) });
      expect(status).toBe(422);
      expect(body.errors).toEqual({ body: ['The body must contain at least one of: public_url, watchdog_url.'] });
    }
    // Either alone is still a change.
    expect((await answer('/api/settings', { method: 'PATCH', json: { public_url: null } })).status).toBe(200);
  });
});
